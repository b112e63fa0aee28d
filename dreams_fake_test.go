package mms_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// dreamFake is a session fake with two stored sessions to dream about.
func dreamFake(t *testing.T) (sessionFake, []string) {
	t.Helper()
	f := newSessionFake(t)
	var ids []string
	for range 2 {
		s, err := f.c.Sessions.Create(context.Background(), mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env})
		require.NoError(t, err)
		ids = append(ids, s.ID)
	}
	return f, ids
}

func dreamParams(store string, sessions []string) mms.DreamCreateParams {
	return mms.DreamCreateParams{
		Inputs: []mms.DreamInput{mms.DreamMemoryStore{MemoryStoreID: store}, mms.DreamSessions{SessionIDs: sessions}},
		Model:  mms.AgentModel("m"),
	}
}

// TestDreamsAgainstFake runs every dreams operation against mmstest: a
// dream moves pending → running → completed on the server's clock, a
// cancel stops one, archive needs a final status, lists filter.
func TestDreamsAgainstFake(t *testing.T) {
	f, sessions := dreamFake(t)
	c, ctx := f.c, context.Background()
	p := dreamParams(f.memoryStore, []string{sessions[1], sessions[0]})
	p.Instructions = "group by customer"
	d, err := c.Dreams.Create(ctx, p)
	require.NoError(t, err)
	if !strings.HasPrefix(d.ID, "drm_") || d.Status != mms.DreamPending || len(d.Outputs) != 0 || d.SessionID != nil ||
		d.Usage.InputTokens != 0 || d.Model.ID != "m" || d.Model.Speed != mms.ModelSpeedStandard || *d.Instructions != "group by customer" {
		t.Fatalf("created %+v", d)
	}
	if _, ok := d.OutputBehavior.(mms.DreamCreateNew); !ok {
		t.Errorf("output behavior %#v", d.OutputBehavior)
	}
	if in, ok := d.Inputs[1].(mms.DreamSessions); !ok || !cmp.Equal(in.SessionIDs, sessions) {
		t.Errorf("sessions input, sorted: %#v", d.Inputs[1])
	}
	if _, err := c.Dreams.Archive(ctx, d.ID); apiStatus(err) != http.StatusBadRequest {
		t.Errorf("archive while pending: %v", err)
	}

	f.clock.Advance(mmstest.DefaultDreamPendingTime + mmstest.DefaultDreamRunningTime/2)
	running, err := c.Dreams.Get(ctx, d.ID)
	require.NoError(t, err)
	if running.Status != mms.DreamRunning || running.SessionID == nil || len(running.Outputs) != 1 || running.Usage.InputTokens == 0 {
		t.Fatalf("running %+v", running)
	}
	out := running.Outputs[0].(mms.DreamMemoryStore).MemoryStoreID
	if out == f.memoryStore {
		t.Errorf("create_new wrote into the input store")
	}
	if _, err := c.MemoryStores.Get(ctx, out); err != nil {
		t.Errorf("output store: %v", err)
	}

	f.clock.Advance(mmstest.DefaultDreamRunningTime)
	done, err := c.Dreams.Wait(ctx, d.ID, mms.DreamWaitParams{PollInterval: time.Millisecond})
	require.NoError(t, err)
	if done.Status != mms.DreamCompleted || done.EndedAt == nil || done.Error != nil || done.Usage.InputTokens != 2000 {
		t.Fatalf("completed %+v", done)
	}
	if _, err := c.Dreams.Cancel(ctx, d.ID); apiStatus(err) != http.StatusBadRequest {
		t.Errorf("cancel a completed dream: %v", err)
	}
	a, err := c.Dreams.Archive(ctx, d.ID)
	if err != nil || a.ArchivedAt == nil {
		t.Fatalf("Archive %+v %v", a, err)
	}
	if again, err := c.Dreams.Archive(ctx, d.ID); err != nil || !cmp.Equal(again, a) {
		t.Errorf("archive again %v", err)
	}

	// A second dream, updating the store in place, canceled; a third one
	// updating the same store waits for nothing: the second has stopped.
	f.clock.Advance(time.Second)
	up := dreamParams(f.memoryStore, sessions[:1])
	up.OutputBehavior = mms.DreamUpdateExisting{MemoryStoreID: f.memoryStore}
	second, err := c.Dreams.Create(ctx, up)
	require.NoError(t, err)
	if _, err := c.Dreams.Create(ctx, up); apiStatus(err) != http.StatusConflict {
		t.Errorf("a second update_existing dream on the store: %v", err)
	}
	cx, err := c.Dreams.Cancel(ctx, second.ID)
	if err != nil || cx.Status != mms.DreamCanceled || cx.EndedAt == nil {
		t.Fatalf("Cancel %+v %v", cx, err)
	}
	if again, err := c.Dreams.Cancel(ctx, second.ID); err != nil || !cmp.Equal(again, cx) {
		t.Errorf("cancel again %v", err)
	}
	third, err := c.Dreams.Create(ctx, up)
	require.NoError(t, err)
	f.clock.Advance(mmstest.DefaultDreamPendingTime)
	require.True(t, f.srv.FailDream(third.ID, "timeout", "ran out of time"))
	failed, err := c.Dreams.Get(ctx, third.ID)
	if err != nil || failed.Status != mms.DreamFailed || failed.Error == nil || failed.Error.Type != "timeout" ||
		failed.Outputs[0].(mms.DreamMemoryStore).MemoryStoreID != f.memoryStore {
		t.Fatalf("failed %+v %v", failed, err)
	}

	ids := func(p mms.DreamListParams) []string {
		var out []string
		for d, err := range c.Dreams.List(ctx, p) {
			require.NoError(t, err)
			out = append(out, d.ID)
		}
		return out
	}
	if got := ids(mms.DreamListParams{Limit: 1}); !cmp.Equal(got, []string{third.ID, second.ID}) {
		t.Errorf("list %v", got)
	}
	if got := ids(mms.DreamListParams{IncludeArchived: true}); !cmp.Equal(got, []string{third.ID, second.ID, d.ID}) {
		t.Errorf("include archived %v", got)
	}
	if got := ids(mms.DreamListParams{Statuses: []mms.DreamStatus{mms.DreamCanceled, mms.DreamCompleted}, IncludeArchived: true}); !cmp.Equal(got, []string{second.ID, d.ID}) {
		t.Errorf("by status %v", got)
	}
	if got := ids(mms.DreamListParams{CreatedLT: fakeNow.Add(time.Second), IncludeArchived: true}); !cmp.Equal(got, []string{d.ID}) {
		t.Errorf("created before %v", got)
	}
	if page, err := c.Dreams.ListPage(ctx, mms.DreamListParams{Limit: 1}); err != nil || page.NextPage == nil {
		t.Errorf("ListPage %+v %v", page, err)
	}
	if _, err := c.Dreams.Get(ctx, "drm_nope"); apiStatus(err) != http.StatusNotFound {
		t.Errorf("unknown: %v", err)
	}

	// The dreaming beta, never the managed-agents one.
	reqs := f.srv.Requests()
	for _, r := range reqs {
		if strings.HasPrefix(r.Path, "/v1/dreams") {
			if b := r.Header.Get("Vendor-Beta"); !strings.Contains(b, mms.BetaDreaming) || strings.Contains(b, mms.BetaManagedAgents) {
				t.Errorf("%s %s: beta %q", r.Method, r.Path, b)
			}
		}
	}
}

// TestDreamsFakeRefuses: the fake enforces the rules the SDK checks.
func TestDreamsFakeRefuses(t *testing.T) {
	f, sessions := dreamFake(t)
	ctx := context.Background()
	ids := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = sessions[0] + strings.Repeat("x", i)
		}
		return out
	}
	store := map[string]any{"type": "memory_store", "memory_store_id": f.memoryStore}
	sess := func(v any) map[string]any { return map[string]any{"type": "sessions", "session_ids": v} }
	for name, c := range map[string]struct {
		body   map[string]any
		status int
	}{
		"ok":                 {map[string]any{"inputs": []any{store, sess(sessions)}, "model": "m"}, 200},
		"no inputs":          {map[string]any{"model": "m"}, 400},
		"two stores":         {map[string]any{"inputs": []any{store, store, sess(sessions)}, "model": "m"}, 400},
		"no sessions input":  {map[string]any{"inputs": []any{store}, "model": "m"}, 400},
		"no session ids":     {map[string]any{"inputs": []any{store, sess([]string{})}, "model": "m"}, 400},
		"101 session ids":    {map[string]any{"inputs": []any{store, sess(ids(101))}, "model": "m"}, 400},
		"100 unknown ids":    {map[string]any{"inputs": []any{store, sess(ids(100))}, "model": "m"}, 404},
		"repeated id":        {map[string]any{"inputs": []any{store, sess([]string{sessions[0], sessions[0]})}, "model": "m"}, 400},
		"unknown store":      {map[string]any{"inputs": []any{map[string]any{"type": "memory_store", "memory_store_id": "memstore_x"}, sess(sessions)}, "model": "m"}, 404},
		"fast model":         {map[string]any{"inputs": []any{store, sess(sessions)}, "model": map[string]any{"id": "m", "speed": "fast"}}, 400},
		"model 256":          {map[string]any{"inputs": []any{store, sess(sessions)}, "model": map[string]any{"id": strings.Repeat("m", 256), "speed": "standard"}}, 200},
		"model 257":          {map[string]any{"inputs": []any{store, sess(sessions)}, "model": strings.Repeat("m", 257)}, 400},
		"instructions 4096":  {map[string]any{"inputs": []any{store, sess(sessions)}, "model": "m", "instructions": strings.Repeat("i", 4096)}, 200},
		"instructions 4097":  {map[string]any{"inputs": []any{store, sess(sessions)}, "model": "m", "instructions": strings.Repeat("i", 4097)}, 400},
		"empty instructions": {map[string]any{"inputs": []any{store, sess(sessions)}, "model": "m", "instructions": ""}, 400},
		"update another store": {map[string]any{"inputs": []any{store, sess(sessions)}, "model": "m",
			"output_behavior": map[string]any{"type": "update_existing", "memory_store_id": "memstore_other"}}, 400},
		"unknown member": {map[string]any{"inputs": []any{store, sess(sessions)}, "model": "m", "color": 1}, 400},
	} {
		t.Run(name, func(t *testing.T) {
			err := f.c.Do(ctx, http.MethodPost, "/v1/dreams", c.body, nil)
			if got := apiStatus(err); (c.status == 200 && err != nil) || (c.status != 200 && got != c.status) {
				t.Errorf("status %d (%v), want %d", got, err, c.status)
			}
		})
	}
	for _, q := range []string{"limit=101", "statuses[]=sleeping", "created_at[gte]=2026-01-01T00:00:00Z"} {
		if err := f.c.Do(ctx, http.MethodGet, "/v1/dreams?"+q, nil, nil); apiStatus(err) != 400 {
			t.Errorf("%s: %v", q, err)
		}
	}
	if err := f.c.Do(ctx, http.MethodGet, "/v1/dreams?limit=100", nil, nil); err != nil {
		t.Errorf("limit 100: %v", err)
	}
	// Without the dreaming beta the fake refuses the request.
	var e *mms.Error
	if err := f.c.Do(ctx, http.MethodGet, "/v1/dreams", nil, nil, option.WithoutEndpointBeta(mms.BetaDreaming)); !errors.As(err, &e) || e.StatusCode != 400 {
		t.Errorf("without the beta: %v", err)
	}
}

// TestDreamCreateIsCreating: a create is not resent after an ambiguous
// failure; a cancel is.
func TestDreamCreateIsCreating(t *testing.T) {
	f, sessions := dreamFake(t)
	ctx := context.Background()
	c := filesClient(t, f.srv, option.WithMaxRetries(2))
	f.srv.InjectFault(mmstest.Fault{Path: "/v1/dreams", Statuses: []int{500}, AfterApply: true})
	if _, err := c.Dreams.Create(ctx, dreamParams(f.memoryStore, sessions)); !errors.Is(err, mms.ErrMaybeApplied) {
		t.Fatalf("create after a 500: %v", err)
	}
	d, err := c.Dreams.Create(ctx, dreamParams(f.memoryStore, sessions))
	require.NoError(t, err)
	f.srv.InjectFault(mmstest.Fault{Path: "/v1/dreams", Statuses: []int{500}, AfterApply: true})
	if got, err := c.Dreams.Cancel(ctx, d.ID); err != nil || got.Status != mms.DreamCanceled {
		t.Errorf("cancel is resent after a 500: %+v %v", got, err)
	}
}

// TestDreamTimesOption: WithDreamTimes sets how long a dream stays
// pending and running on the server's clock.
func TestDreamTimesOption(t *testing.T) {
	clock := mmstest.NewManualClock(fakeNow)
	srv := mmstest.NewServer(mmstest.WithManualClock(clock), mmstest.WithDreamTimes(time.Minute, time.Hour))
	t.Cleanup(srv.Close)
	c, ctx := filesClient(t, srv, option.WithMaxRetries(0)), context.Background()
	a, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "a", Model: mms.AgentModel("m")})
	require.NoError(t, err)
	env, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "e"})
	require.NoError(t, err)
	store, err := c.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{Name: "s"})
	require.NoError(t, err)
	s, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(a.ID), EnvironmentID: env.ID})
	require.NoError(t, err)
	d, err := c.Dreams.Create(ctx, dreamParams(store.ID, []string{s.ID}))
	require.NoError(t, err)
	for _, step := range []struct {
		advance time.Duration
		want    mms.DreamStatus
	}{{59 * time.Second, mms.DreamPending}, {time.Second, mms.DreamRunning}, {59 * time.Minute, mms.DreamRunning}, {time.Minute, mms.DreamCompleted}} {
		clock.Advance(step.advance)
		got, err := c.Dreams.Get(ctx, d.ID)
		if err != nil || got.Status != step.want {
			t.Fatalf("after %v more: %+v %v, want %s", step.advance, got, err, step.want)
		}
	}
}
