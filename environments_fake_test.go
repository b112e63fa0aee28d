package mms_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestEnvironmentsAgainstFake runs every environments operation against
// mmstest: create (default and self-hosted configs), updates that keep
// omitted config sub-fields, clear and metadata patch, archive, list with
// include_archived, delete.
func TestEnvironmentsAgainstFake(t *testing.T) {
	clock := mmstest.NewManualClock(time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC))
	srv := mmstest.NewServer(mmstest.WithManualClock(clock))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()

	cloud, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "py", Description: "data",
		Config: mms.CloudEnvironmentConfig{
			Networking: mms.LimitedNetworking{AllowedHosts: []string{"pypi.org"}, AllowPackageManagers: mms.Ptr(true)},
			Packages:   &mms.EnvironmentPackages{Pip: []string{"pandas==2.2.0"}, Apt: []string{"git"}},
		},
		Metadata: map[string]string{"team": "a", "old": "x"}})
	require.NoError(t, err)
	if !strings.HasPrefix(cloud.ID, "env_") || cloud.Description == nil || cloud.Scope != "" {
		t.Fatalf("created %+v", cloud)
	}
	clock.Advance(time.Minute)
	// Only packages.pip: networking and apt keep their values.
	u, err := c.Environments.Update(ctx, cloud.ID, mms.EnvironmentUpdateParams{
		Description: mms.Clear[string](),
		Config:      mms.Set[mms.EnvironmentConfig](mms.CloudEnvironmentConfig{Packages: &mms.EnvironmentPackages{Pip: []string{"numpy"}}}),
		Scope:       mms.Set(mms.EnvironmentScopeAccount),
		Metadata:    mms.MetadataPatch{}.Delete("old").Set("team", "b"),
	})
	require.NoError(t, err)
	want := mms.CloudEnvironmentConfig{
		Networking: mms.LimitedNetworking{AllowedHosts: []string{"pypi.org"}, AllowMCPServers: mms.Ptr(false), AllowPackageManagers: mms.Ptr(true)},
		Packages: &mms.EnvironmentPackages{Type: "packages", Apt: []string{"git"}, Cargo: []string{}, Gem: []string{}, Go: []string{},
			Npm: []string{}, Pip: []string{"numpy"}},
	}
	if diff := cmp.Diff(mms.EnvironmentConfig(want), u.Config); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	if u.Description != nil || u.Scope != mms.EnvironmentScopeAccount || !cmp.Equal(u.Metadata, map[string]string{"team": "b"}) || u.UpdatedAt == u.CreatedAt {
		t.Errorf("updated %+v", u)
	}
	// Only networking; then "" deletes a metadata key as the service allows.
	u, err = c.Environments.Update(ctx, cloud.ID, mms.EnvironmentUpdateParams{
		Config:   mms.Set[mms.EnvironmentConfig](mms.CloudEnvironmentConfig{Networking: mms.UnrestrictedNetworking{}}),
		Scope:    mms.Clear[mms.EnvironmentScope](),
		Metadata: mms.MetadataPatch{}.Set("team", ""),
	})
	require.NoError(t, err)
	if got := u.Config.(mms.CloudEnvironmentConfig); !cmp.Equal(got.Networking, mms.EnvironmentNetworking(mms.UnrestrictedNetworking{})) ||
		!cmp.Equal(got.Packages.Pip, []string{"numpy"}) || u.Scope != "" || len(u.Metadata) != 0 {
		t.Errorf("updated %+v", u)
	}

	self, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "on-prem", Config: mms.SelfHostedEnvironmentConfig{}})
	require.NoError(t, err)
	if _, ok := self.Config.(mms.SelfHostedEnvironmentConfig); !ok {
		t.Fatalf("self-hosted %+v", self)
	}
	def, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "default"})
	require.NoError(t, err)
	if cfg, ok := def.Config.(mms.CloudEnvironmentConfig); !ok || !cmp.Equal(cfg.Networking, mms.EnvironmentNetworking(mms.UnrestrictedNetworking{})) {
		t.Errorf("default config %#v", def.Config)
	}
	if a, err := c.Environments.Archive(ctx, def.ID); err != nil || a.ArchivedAt == nil {
		t.Fatalf("archive: %+v %v", a, err)
	}
	if _, err := c.Environments.Update(ctx, def.ID, mms.EnvironmentUpdateParams{Name: "x"}); !isStatus(err, 400) {
		t.Errorf("update of an archived environment: %v", err)
	}

	list := func(p mms.EnvironmentListParams) []string {
		var ids []string
		for e, err := range c.Environments.List(ctx, p) {
			require.NoError(t, err)
			ids = append(ids, e.ID)
		}
		return ids
	}
	if got := list(mms.EnvironmentListParams{Limit: 1}); !cmp.Equal(got, []string{self.ID, cloud.ID}) {
		t.Errorf("list %v", got)
	}
	if got := list(mms.EnvironmentListParams{IncludeArchived: true}); !cmp.Equal(got, []string{def.ID, self.ID, cloud.ID}) {
		t.Errorf("list with archived %v", got)
	}

	d, err := c.Environments.Delete(ctx, cloud.ID)
	if err != nil || d.ID != cloud.ID {
		t.Fatalf("delete: %+v %v", d, err)
	}
	if _, err := c.Environments.Get(ctx, cloud.ID); !isStatus(err, 404) {
		t.Errorf("get after delete: %v", err)
	}
	if g, err := c.Environments.Get(ctx, self.ID); err != nil || g.Name != "on-prem" {
		t.Errorf("get: %+v %v", g, err)
	}
}

func isStatus(err error, status int) bool {
	var apiErr *mms.Error
	return errors.As(err, &apiErr) && apiErr.StatusCode == status
}

// newWorkFake starts a fake on a manual clock with a self-hosted
// environment.
func newWorkFake(t *testing.T) (*mms.Client, *mmstest.Server, *mmstest.ManualClock, string) {
	t.Helper()
	clock := mmstest.NewManualClock(time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC))
	srv := mmstest.NewServer(mmstest.WithManualClock(clock))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	env, err := c.Environments.Create(context.Background(), mms.EnvironmentCreateParams{Name: "w", Config: mms.SelfHostedEnvironmentConfig{}})
	require.NoError(t, err)
	return c, srv, clock, env.ID
}

type pollResult struct {
	w   *mms.Work
	err error
}

// startPoll polls in the background and returns once the fake counts the
// poll as waiting.
func startPoll(t *testing.T, c *mms.Client, envID string, p mms.EnvironmentWorkPollParams, waiting int) <-chan pollResult {
	t.Helper()
	done := make(chan pollResult, 1)
	go func() {
		w, err := c.Environments.Work.Poll(context.Background(), envID, p)
		done <- pollResult{w, err}
	}()
	for {
		s, err := c.Environments.Work.Stats(context.Background(), envID)
		require.NoError(t, err)
		if s.WorkersPolling != nil && *s.WorkersPolling == waiting {
			return done
		}
		select {
		case r := <-done:
			t.Fatalf("poll ended before waiting: %+v %v", r.w, r.err)
		default:
		}
	}
}

// TestEnvironmentWorkAgainstFake: a poll that blocks and wakes on
// enqueue and on the clock, the lease, ack, heartbeats, stop, stats,
// update and list.
func TestEnvironmentWorkAgainstFake(t *testing.T) {
	c, srv, clock, envID := newWorkFake(t)
	ctx := context.Background()
	work := c.Environments.Work

	// Nothing queued, no wait: nil.
	if w, err := work.Poll(ctx, envID, mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(0)}); err != nil || w != nil {
		t.Fatalf("empty poll: %+v %v", w, err)
	}
	// A waiting poll ends empty when the server's clock passes block_ms.
	done := startPoll(t, c, envID, mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(30_000), WorkerID: "w-1"}, 1)
	clock.Advance(29 * time.Second)
	select {
	case r := <-done:
		t.Fatalf("poll ended before block_ms: %+v %v", r.w, r.err)
	default:
	}
	clock.Advance(time.Second)
	if r := <-done; r.err != nil || r.w != nil {
		t.Fatalf("poll after block_ms: %+v %v", r.w, r.err)
	}
	// A waiting poll wakes on enqueued work and takes it.
	done = startPoll(t, c, envID, mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(60_000), WorkerID: "w-1"}, 1)
	hcID, err := srv.EnqueueHealthcheck(envID)
	require.NoError(t, err)
	r := <-done
	if r.err != nil || r.w == nil || r.w.ID != hcID || r.w.State != mms.WorkStateStarting || r.w.StartedAt == nil {
		t.Fatalf("woken poll: %+v %v", r.w, r.err)
	}
	if _, ok := r.w.Data.(mms.WorkHealthcheck); !ok {
		t.Errorf("data %#v", r.w.Data)
	}
	polls := 0
	for _, req := range srv.Requests() {
		if strings.HasSuffix(req.Path, "/work/poll") && req.Header.Get("Vendor-Worker-Id") == "w-1" {
			polls++
		}
	}
	if polls != 2 {
		t.Errorf("%d polls recorded with the worker id, want 2", polls)
	}

	// Two queued: the oldest first; stats count them.
	second, _ := srv.EnqueueHealthcheck(envID)
	third, _ := srv.EnqueueHealthcheck(envID)
	s, err := work.Stats(ctx, envID)
	if err != nil || s.Depth != 2 || s.Pending != 1 || s.OldestQueuedAt == nil || *s.WorkersPolling != 0 {
		t.Fatalf("stats %+v %v", s, err)
	}
	if w, err := work.Poll(ctx, envID, mms.EnvironmentWorkPollParams{}); err != nil || w.ID != second {
		t.Fatalf("oldest first: %+v %v", w, err)
	}

	// Ack, heartbeat (conditional), stop.
	a, err := work.Ack(ctx, envID, hcID)
	if err != nil || a.State != mms.WorkStateActive || a.AcknowledgedAt == nil {
		t.Fatalf("ack %+v %v", a, err)
	}
	if _, err := work.Ack(ctx, envID, hcID); !isStatus(err, 409) {
		t.Errorf("second ack: %v", err)
	}
	hb, err := work.Heartbeat(ctx, envID, hcID, mms.WorkHeartbeatParams{DesiredTTLSeconds: mms.Ptr(60)})
	if err != nil || !hb.LeaseExtended || hb.TTLSeconds != 60 || hb.State != mms.WorkStateActive {
		t.Fatalf("heartbeat %+v %v", hb, err)
	}
	clock.Advance(10 * time.Second)
	if stale, err := work.Heartbeat(ctx, envID, hcID, mms.WorkHeartbeatParams{ExpectedLastHeartbeat: "2000-01-01T00:00:00Z"}); err != nil || stale.LeaseExtended {
		t.Errorf("stale heartbeat %+v %v", stale, err)
	}
	hb2, err := work.Heartbeat(ctx, envID, hcID, mms.WorkHeartbeatParams{ExpectedLastHeartbeat: hb.LastHeartbeat})
	if err != nil || !hb2.LeaseExtended || hb2.LastHeartbeat == hb.LastHeartbeat || hb2.TTLSeconds != 300 {
		t.Errorf("conditional heartbeat %+v %v", hb2, err)
	}

	// The lease of the second item (taken, never kept alive) runs out:
	// a poll reclaims it once the third is taken.
	if w, err := work.Poll(ctx, envID, mms.EnvironmentWorkPollParams{}); err != nil || w.ID != third {
		t.Fatalf("third: %+v %v", w, err)
	}
	if w, err := work.Poll(ctx, envID, mms.EnvironmentWorkPollParams{ReclaimOlderThanMS: mms.Ptr(10_000)}); err != nil || w == nil || w.ID != second {
		t.Fatalf("reclaim: %+v %v", w, err)
	}
	if w, err := work.Poll(ctx, envID, mms.EnvironmentWorkPollParams{}); err != nil || w != nil {
		t.Fatalf("nothing to reclaim yet: %+v %v", w, err)
	}
	clock.Advance(300 * time.Second)
	if w, err := work.Poll(ctx, envID, mms.EnvironmentWorkPollParams{}); err != nil || w == nil {
		t.Fatalf("expired lease: %+v %v", w, err)
	}

	st, err := work.Stop(ctx, envID, hcID, mms.WorkStopParams{})
	if err != nil || st.State != mms.WorkStateStopping || st.StopRequestedAt == nil || st.StoppedAt != nil {
		t.Fatalf("stop %+v %v", st, err)
	}
	if hb, err := work.Heartbeat(ctx, envID, hcID, mms.WorkHeartbeatParams{}); err != nil || hb.LeaseExtended || hb.State != mms.WorkStateStopping {
		t.Errorf("heartbeat while stopping %+v %v", hb, err)
	}
	st, err = work.Stop(ctx, envID, hcID, mms.WorkStopParams{Force: true})
	if err != nil || st.State != mms.WorkStateStopped || st.StoppedAt == nil {
		t.Fatalf("forced stop %+v %v", st, err)
	}

	// Metadata patch, get, list newest first.
	up, err := work.Update(ctx, envID, hcID, mms.WorkUpdateParams{Metadata: mms.MetadataPatch{}.Set("host", "h1").Set("x", "y")})
	if err != nil || !cmp.Equal(up.Metadata, map[string]string{"host": "h1", "x": "y"}) {
		t.Fatalf("update %+v %v", up, err)
	}
	up, err = work.Update(ctx, envID, hcID, mms.WorkUpdateParams{Metadata: mms.MetadataPatch{}.Delete("x")})
	if err != nil || !cmp.Equal(up.Metadata, map[string]string{"host": "h1"}) {
		t.Fatalf("delete key %+v %v", up, err)
	}
	if g, err := work.Get(ctx, envID, hcID); err != nil || g.State != mms.WorkStateStopped {
		t.Errorf("get %+v %v", g, err)
	}
	var ids []string
	for w, err := range work.List(ctx, envID, mms.WorkListParams{Limit: 2}) {
		require.NoError(t, err)
		ids = append(ids, w.ID)
	}
	if !cmp.Equal(ids, []string{third, second, hcID}) {
		t.Errorf("list %v", ids)
	}
	if _, err := work.Get(ctx, envID, "work_nope"); !isStatus(err, 404) {
		t.Errorf("unknown work: %v", err)
	}
}

// TestEnvironmentWorkPollEnds: a waiting poll ends with its context, and a
// poll of a cloud environment is a 400.
func TestEnvironmentWorkPollEnds(t *testing.T) {
	c, _, _, envID := newWorkFake(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Environments.Work.Poll(ctx, envID, mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(3_600_000)})
		done <- err
	}()
	for {
		s, err := c.Environments.Work.Stats(context.Background(), envID)
		require.NoError(t, err)
		if *s.WorkersPolling == 1 {
			break
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled poll: %v", err)
	}
	cloud, err := c.Environments.Create(context.Background(), mms.EnvironmentCreateParams{Name: "c"})
	require.NoError(t, err)
	if _, err := c.Environments.Work.Poll(context.Background(), cloud.ID, mms.EnvironmentWorkPollParams{}); !isStatus(err, 400) {
		t.Errorf("cloud poll: %v", err)
	}
}
