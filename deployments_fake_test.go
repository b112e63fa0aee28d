package mms_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// newDeployment creates a deployment of f's agent in f's environment.
func newDeployment(t *testing.T, f sessionFake, p mms.DeploymentCreateParams) *mms.Deployment {
	t.Helper()
	if p.Name == "" {
		p.Name = "nightly"
	}
	if p.Agent == nil {
		p.Agent = mms.SessionAgentID(f.agent.ID)
	}
	if p.EnvironmentID == "" {
		p.EnvironmentID = f.env
	}
	if p.InitialEvents == nil {
		p.InitialEvents = []mms.DeploymentInitialEvent{mms.NewUserMessageEvent("triage the inbox")}
	}
	d, err := f.c.Deployments.Create(context.Background(), p)
	require.NoError(t, err)
	return d
}

// TestDeploymentsAgainstFake runs every deployments operation against
// mmstest: create with every member, get, update (replace, clear, patch),
// list with its filters, pause, unpause, run now, archive.
func TestDeploymentsAgainstFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	d := newDeployment(t, f, mms.DeploymentCreateParams{
		Description: "every night",
		InitialEvents: []mms.DeploymentInitialEvent{
			mms.NewDefineOutcomeEvent("a report", mms.TextRubric{Content: "complete"}),
			mms.NewUserMessageEvent("go"), mms.NewSystemMessageEvent("be terse"),
		},
		Resources: []mms.SessionResourceParams{
			mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/public.git"},
			mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/private.git", AuthorizationToken: mms.NewSecret("ghp_deploysecret"),
				Checkout: mms.CommitCheckout{SHA: "abcdef123"}},
			mms.MemoryStoreResourceParams{MemoryStoreID: f.memoryStore, Access: mms.MemoryStoreAccessReadOnly, Instructions: "notes"},
		},
		VaultIDs: []string{f.vault},
		Metadata: map[string]string{"team": "ops"},
		Schedule: &mms.DeploymentScheduleParams{Expression: "0 3 * * *", Timezone: "UTC"},
		Budget:   mms.Ptr(mms.DeploymentBudgetCents(2500)),
	})
	if !strings.HasPrefix(d.ID, "depl_") || d.Status != mms.DeploymentActive || d.PausedReason != nil || d.Agent.ID != f.agent.ID ||
		d.Agent.Version != 1 || *d.Description != "every night" || len(d.InitialEvents) != 3 || len(d.Resources) != 3 ||
		d.Budget.MaxListCost.Amount != "2500" || d.ArchivedAt != nil || !cmp.Equal(d.VaultIDs, []string{f.vault}) {
		t.Fatalf("created %+v", d)
	}
	if _, ok := d.InitialEvents[2].(mms.SystemMessageEventParams); !ok {
		t.Errorf("initial events %#v", d.InitialEvents)
	}
	if strings.Contains(mustJSON(t, d), "ghp_deploysecret") {
		t.Error("the record echoes a repository token")
	}
	if r, ok := d.Resources[0].(mms.DeploymentRepositoryResource); !ok || r.MountPath != nil || r.Checkout != nil {
		t.Errorf("public repository %#v", d.Resources[0])
	}
	if m, ok := d.Resources[2].(mms.DeploymentMemoryStoreResource); !ok || m.Access != mms.MemoryStoreAccessReadOnly || *m.Instructions != "notes" {
		t.Errorf("memory store %#v", d.Resources[2])
	}
	want := []string{"2026-04-03T03:00:00Z", "2026-04-04T03:00:00Z", "2026-04-05T03:00:00Z", "2026-04-06T03:00:00Z", "2026-04-07T03:00:00Z"}
	if s := d.Schedule; s == nil || !cmp.Equal(s.UpcomingRunsAt, want) || s.LastRunAt != nil {
		t.Errorf("schedule %+v", d.Schedule)
	}
	if g, err := c.Deployments.Get(ctx, d.ID); err != nil || !cmp.Equal(g, d) {
		t.Errorf("Get: %v\n%s", err, cmp.Diff(d, g))
	}

	// Update: replace, clear, patch; what was not sent is kept.
	f.clock.Advance(time.Minute)
	u, err := c.Deployments.Update(ctx, d.ID, mms.DeploymentUpdateParams{
		Name: "weekly", Description: mms.Clear[string](), Resources: mms.Clear[[]mms.SessionResourceParams](),
		Schedule: mms.Set(mms.DeploymentScheduleParams{Expression: "30 9 * * MON", Timezone: "Europe/Paris"}),
		Budget:   mms.Clear[mms.SessionBudget](), Metadata: mms.MetadataPatch{}.Set("tier", "1").Delete("team"),
	})
	require.NoError(t, err)
	if u.Name != "weekly" || u.Description != nil || len(u.Resources) != 0 || u.Budget != nil || len(u.InitialEvents) != 3 ||
		!cmp.Equal(u.Metadata, map[string]string{"tier": "1"}) || u.Schedule.Timezone != "Europe/Paris" ||
		u.Schedule.UpcomingRunsAt[0] != "2026-04-06T07:30:00Z" || u.UpdatedAt == d.UpdatedAt {
		t.Fatalf("updated %+v", u)
	}
	if u2, err := c.Deployments.Update(ctx, d.ID, mms.DeploymentUpdateParams{Agent: mms.SessionAgentRef{ID: f.agent.ID, Version: mms.Ptr(1)},
		VaultIDs: mms.Set([]string{})}); err != nil || len(u2.VaultIDs) != 0 || u2.Agent.Version != 1 {
		t.Fatalf("update agent, vaults: %+v %v", u2, err)
	}

	// Pause, unpause; run now works while paused.
	p, err := c.Deployments.Pause(ctx, d.ID)
	if err != nil || p.Status != mms.DeploymentPaused {
		t.Fatalf("Pause: %+v %v", p, err)
	}
	if _, ok := p.PausedReason.(mms.DeploymentPausedManual); !ok || len(p.Schedule.UpcomingRunsAt) != 5 {
		t.Errorf("paused %+v", p)
	}
	if again, err := c.Deployments.Pause(ctx, d.ID); err != nil || !cmp.Equal(again, p) {
		t.Errorf("pause again: %v\n%s", err, cmp.Diff(p, again))
	}
	run, err := c.Deployments.Run(ctx, d.ID)
	if err != nil || !strings.HasPrefix(run.ID, "drun_") || run.SessionID == nil || run.Error != nil || run.DeploymentID != d.ID {
		t.Fatalf("Run: %+v %v", run, err)
	}
	if _, ok := run.TriggerContext.(mms.DeploymentManualTrigger); !ok {
		t.Errorf("trigger %#v", run.TriggerContext)
	}
	sess, err := c.Sessions.Get(ctx, *run.SessionID)
	if err != nil || sess.DeploymentID == nil || *sess.DeploymentID != d.ID {
		t.Fatalf("the run's session %+v %v", sess, err)
	}
	var fromDeployment []string
	for s, err := range c.Sessions.List(ctx, mms.SessionListParams{DeploymentID: d.ID}) {
		require.NoError(t, err)
		fromDeployment = append(fromDeployment, s.ID)
	}
	if !cmp.Equal(fromDeployment, []string{sess.ID}) {
		t.Errorf("sessions of the deployment %v", fromDeployment)
	}
	up, err := c.Deployments.Unpause(ctx, d.ID)
	if err != nil || up.Status != mms.DeploymentActive || up.PausedReason != nil {
		t.Fatalf("Unpause: %+v %v", up, err)
	}

	// List and its filters.
	f.clock.Advance(time.Minute)
	other := newDeployment(t, f, mms.DeploymentCreateParams{Name: "other"})
	_, err = c.Deployments.Pause(ctx, other.ID)
	require.NoError(t, err)
	ids := func(p mms.DeploymentListParams) []string {
		var out []string
		for d, err := range c.Deployments.List(ctx, p) {
			require.NoError(t, err)
			out = append(out, d.ID)
		}
		return out
	}
	if got := ids(mms.DeploymentListParams{Limit: 1}); !cmp.Equal(got, []string{other.ID, d.ID}) {
		t.Errorf("list %v", got)
	}
	if got := ids(mms.DeploymentListParams{Status: mms.DeploymentPaused}); !cmp.Equal(got, []string{other.ID}) {
		t.Errorf("paused %v", got)
	}
	if got := ids(mms.DeploymentListParams{AgentID: "agent_other"}); len(got) != 0 {
		t.Errorf("by agent %v", got)
	}
	if got := ids(mms.DeploymentListParams{CreatedGTE: fakeNow.Add(90 * time.Second)}); !cmp.Equal(got, []string{other.ID}) {
		t.Errorf("created since %v", got)
	}
	page, err := c.Deployments.ListPage(ctx, mms.DeploymentListParams{Limit: 1})
	if err != nil || len(page.Data) != 1 || page.NextPage == nil {
		t.Fatalf("ListPage %+v %v", page, err)
	}

	// Archive: final, listed only with include_archived; runs refused.
	a, err := c.Deployments.Archive(ctx, other.ID)
	if err != nil || a.ArchivedAt == nil || a.Status != mms.DeploymentActive || a.PausedReason != nil || a.Schedule != nil {
		t.Fatalf("Archive %+v %v", a, err)
	}
	if again, err := c.Deployments.Archive(ctx, other.ID); err != nil || !cmp.Equal(again, a) {
		t.Errorf("archive again %v", err)
	}
	if got := ids(mms.DeploymentListParams{}); !cmp.Equal(got, []string{d.ID}) {
		t.Errorf("after archive %v", got)
	}
	if got := ids(mms.DeploymentListParams{IncludeArchived: true}); len(got) != 2 {
		t.Errorf("include archived %v", got)
	}
	for name, call := range map[string]func() error{
		"run":     func() error { _, err := c.Deployments.Run(ctx, other.ID); return err },
		"pause":   func() error { _, err := c.Deployments.Pause(ctx, other.ID); return err },
		"unpause": func() error { _, err := c.Deployments.Unpause(ctx, other.ID); return err },
	} {
		if apiStatus(call()) != http.StatusBadRequest {
			t.Errorf("%s on an archived deployment is not a 400", name)
		}
	}
	if _, err := c.Deployments.Get(ctx, "depl_nope"); apiStatus(err) != http.StatusNotFound {
		t.Errorf("unknown: %v", err)
	}
}

// TestDeploymentScheduleFiresOnTheClock: the fake fires a schedule on its
// clock, records scheduled runs, sets last_run_at, and a run whose error
// pauses the deployment pauses it; runs list with their filters.
func TestDeploymentScheduleFiresOnTheClock(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	d := newDeployment(t, f, mms.DeploymentCreateParams{Schedule: &mms.DeploymentScheduleParams{Expression: "0 * * * *", Timezone: "UTC"}})
	manual := newDeployment(t, f, mms.DeploymentCreateParams{Name: "manual"})
	f.clock.Advance(2*time.Hour + time.Minute) // 10:00 → 12:01: fires at 11:00 and 12:00
	got, err := c.Deployments.Get(ctx, d.ID)
	require.NoError(t, err)
	if got.Schedule.LastRunAt == nil || *got.Schedule.LastRunAt != "2026-04-02T12:00:00Z" || got.Schedule.UpcomingRunsAt[0] != "2026-04-02T13:00:00Z" {
		t.Fatalf("schedule %+v", got.Schedule)
	}
	_, err = c.Deployments.Run(ctx, manual.ID)
	require.NoError(t, err)

	runs := func(p mms.DeploymentRunListParams) []mms.DeploymentRun {
		var out []mms.DeploymentRun
		for r, err := range c.Deployments.Runs.List(ctx, p) {
			require.NoError(t, err)
			out = append(out, r)
		}
		return out
	}
	all := runs(mms.DeploymentRunListParams{Limit: 2})
	if len(all) != 3 || all[0].DeploymentID != manual.ID {
		t.Fatalf("runs %+v", all)
	}
	sched := runs(mms.DeploymentRunListParams{DeploymentID: d.ID, TriggerType: mms.DeploymentTriggerSchedule})
	if len(sched) != 2 || sched[0].TriggerContext.(mms.DeploymentScheduleTrigger).ScheduledAt != "2026-04-02T12:00:00Z" {
		t.Fatalf("scheduled runs %+v", sched)
	}
	if g, err := c.Deployments.Runs.Get(ctx, sched[1].ID); err != nil || !cmp.Equal(*g, sched[1]) {
		t.Errorf("Runs.Get %v", err)
	}
	if got := runs(mms.DeploymentRunListParams{TriggerType: mms.DeploymentTriggerManual}); len(got) != 1 {
		t.Errorf("manual runs %d", len(got))
	}
	if got := runs(mms.DeploymentRunListParams{DeploymentID: "depl_unknown"}); len(got) != 0 {
		t.Errorf("unknown deployment %d", len(got))
	}

	// The environment goes: the next fire fails and pauses the deployment.
	_, err = c.Environments.Archive(ctx, f.env)
	require.NoError(t, err)
	f.clock.Advance(time.Hour)
	paused, err := c.Deployments.Get(ctx, d.ID)
	require.NoError(t, err)
	reason, ok := paused.PausedReason.(mms.DeploymentPausedError)
	if paused.Status != mms.DeploymentPaused || !ok || reason.Error.Type != mms.DeploymentErrorEnvironmentNotFound {
		t.Fatalf("auto-paused %+v", paused)
	}
	failed := runs(mms.DeploymentRunListParams{HasError: mms.Ptr(true)})
	if len(failed) != 1 || failed[0].SessionID != nil || failed[0].Error.Message == "" {
		t.Fatalf("failed runs %+v", failed)
	}
	if ok := runs(mms.DeploymentRunListParams{HasError: mms.Ptr(false)}); len(ok) != 3 {
		t.Errorf("successful runs %d", len(ok))
	}
	// Paused: no more fires.
	f.clock.Advance(3 * time.Hour)
	if got := runs(mms.DeploymentRunListParams{DeploymentID: d.ID}); len(got) != 3 {
		t.Errorf("fires while paused: %d runs", len(got))
	}
	// Runs are stored when made: the fires of 11:00 and 12:00 and the
	// manual run at 12:01, the failed fire at 13:01.
	if got := runs(mms.DeploymentRunListParams{CreatedGT: fakeNow.Add(150 * time.Minute), CreatedLTE: fakeNow.Add(181 * time.Minute)}); len(got) != 1 {
		t.Errorf("created (12:30, 13:01]: %d runs", len(got))
	}
	if got := runs(mms.DeploymentRunListParams{CreatedGTE: fakeNow.Add(121 * time.Minute), CreatedLT: fakeNow.Add(150 * time.Minute)}); len(got) != 3 {
		t.Errorf("created [12:01, 12:30): %d runs", len(got))
	}
}

// TestDeploymentsFakeRefuses: the fake enforces the rules the SDK checks,
// shown by requests sent around the SDK's checks with Client.Do.
func TestDeploymentsFakeRefuses(t *testing.T) {
	f := newSessionFake(t)
	ctx := context.Background()
	base := func() map[string]any {
		return map[string]any{"name": "n", "agent": f.agent.ID, "environment_id": f.env,
			"initial_events": []any{map[string]any{"type": "user.message", "content": []any{map[string]any{"type": "text", "text": "hi"}}}}}
	}
	sys := map[string]any{"type": "system.message", "content": []any{map[string]any{"type": "text", "text": "s"}}}
	many := func(n int, v any) []any { return slices.Repeat([]any{v}, n) }
	user := base()["initial_events"].([]any)[0]
	for name, c := range map[string]struct {
		edit   func(m map[string]any)
		status int
	}{
		"ok":                {func(m map[string]any) {}, 200},
		"no name":           {func(m map[string]any) { delete(m, "name") }, 400},
		"empty name":        {func(m map[string]any) { m["name"] = "" }, 400},
		"unknown member":    {func(m map[string]any) { m["color"] = "red" }, 400},
		"no events":         {func(m map[string]any) { m["initial_events"] = []any{} }, 400},
		"50 events":         {func(m map[string]any) { m["initial_events"] = many(50, user) }, 200},
		"51 events":         {func(m map[string]any) { m["initial_events"] = many(51, user) }, 400},
		"system after user": {func(m map[string]any) { m["initial_events"] = []any{user, sys} }, 200},
		"system first":      {func(m map[string]any) { m["initial_events"] = []any{sys, user} }, 400},
		"system alone":      {func(m map[string]any) { m["initial_events"] = []any{sys} }, 400},
		"500 resources": {func(m map[string]any) {
			m["resources"] = many(500, map[string]any{"type": "github_repository", "url": "u"})
		}, 200},
		"501 resources": {func(m map[string]any) {
			m["resources"] = many(501, map[string]any{"type": "github_repository", "url": "u"})
		}, 400},
		"51 vaults":           {func(m map[string]any) { m["vault_ids"] = many(51, f.vault) }, 400},
		"50 vaults":           {func(m map[string]any) { m["vault_ids"] = many(50, f.vault) }, 200},
		"unknown vault":       {func(m map[string]any) { m["vault_ids"] = []any{"vlt_nope"} }, 404},
		"unknown agent":       {func(m map[string]any) { m["agent"] = "agent_nope" }, 404},
		"agent version 0":     {func(m map[string]any) { m["agent"] = map[string]any{"id": f.agent.ID, "version": 0} }, 400},
		"agent object":        {func(m map[string]any) { m["agent"] = map[string]any{"id": f.agent.ID, "version": 1} }, 200},
		"unknown environment": {func(m map[string]any) { m["environment_id"] = "env_nope" }, 404},
		"bad cron": {func(m map[string]any) {
			m["schedule"] = map[string]any{"type": "cron", "expression": "@daily", "timezone": "UTC"}
		}, 400},
		"cron with seconds": {func(m map[string]any) {
			m["schedule"] = map[string]any{"type": "cron", "expression": "0 0 * * * *", "timezone": "UTC"}
		}, 400},
		"bad zone": {func(m map[string]any) {
			m["schedule"] = map[string]any{"type": "cron", "expression": "0 0 * * *", "timezone": "Mars/Base"}
		}, 400},
		"no zone": {func(m map[string]any) { m["schedule"] = map[string]any{"type": "cron", "expression": "0 0 * * *"} }, 400},
		"decimal budget": {func(m map[string]any) {
			m["budget"] = map[string]any{"type": "limit", "max_list_cost": map[string]any{"amount": "25.00", "currency": "USD"}}
		}, 400},
		"17 metadata pairs": {func(m map[string]any) { m["metadata"] = metadataOf(17) }, 400},
		"16 metadata pairs": {func(m map[string]any) { m["metadata"] = metadataOf(16) }, 200},
		"memory store not found": {func(m map[string]any) {
			m["resources"] = []any{map[string]any{"type": "memory_store", "memory_store_id": "memstore_x"}}
		}, 404},
	} {
		t.Run(name, func(t *testing.T) {
			body := base()
			c.edit(body)
			var out map[string]any
			err := f.c.Do(ctx, http.MethodPost, "/v1/deployments", body, &out)
			if got := apiStatus(err); (c.status == 200 && err != nil) || (c.status != 200 && got != c.status) {
				t.Errorf("status %d (%v), want %d", got, err, c.status)
			}
		})
	}
	d := newDeployment(t, f, mms.DeploymentCreateParams{})
	for name, body := range map[string]map[string]any{
		"clear name":           {"name": nil},
		"clear agent":          {"agent": nil},
		"clear environment":    {"environment_id": nil},
		"clear initial events": {"initial_events": nil},
		"empty initial events": {"initial_events": []any{}},
	} {
		if err := f.c.Do(ctx, http.MethodPost, "/v1/deployments/"+d.ID, body, nil); apiStatus(err) != 400 {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := f.c.Do(ctx, http.MethodGet, "/v1/deployments?status=paused&include_archived=true", nil, nil); apiStatus(err) != 400 {
		t.Errorf("status with include_archived: %v", err)
	}
	if err := f.c.Do(ctx, http.MethodGet, "/v1/deployment_runs?limit=1001", nil, nil); apiStatus(err) != 400 {
		t.Errorf("runs limit 1001: %v", err)
	}
	if err := f.c.Do(ctx, http.MethodGet, "/v1/deployment_runs?limit=1000", nil, nil); err != nil {
		t.Errorf("runs limit 1000: %v", err)
	}
	if err := f.c.Do(ctx, http.MethodGet, "/v1/deployments?limit=101", nil, nil); apiStatus(err) != 400 {
		t.Errorf("limit 101: %v", err)
	}
}

func metadataOf(n int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m[strings.Repeat("k", i+1)] = "v"
	}
	return m
}

// TestDeploymentsBetaAndRetries: the managed-agents beta goes with every
// deployments call; a create and a run are not resent after an ambiguous
// failure (ErrMaybeApplied), a pause is.
func TestDeploymentsBetaAndRetries(t *testing.T) {
	f := newSessionFake(t)
	ctx := context.Background()
	d := newDeployment(t, f, mms.DeploymentCreateParams{})
	_, err := f.c.Deployments.Get(ctx, d.ID)
	require.NoError(t, err)
	reqs := f.srv.Requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last.Header.Get("Vendor-Beta"), mms.BetaManagedAgents) {
		t.Errorf("beta %q", last.Header.Get("Vendor-Beta"))
	}

	c := filesClient(t, f.srv, option.WithMaxRetries(2))
	for name, call := range map[string]func() error{
		"run": func() error { _, err := c.Deployments.Run(ctx, d.ID); return err },
		"create": func() error {
			_, err := c.Deployments.Create(ctx, mms.DeploymentCreateParams{Name: "x", Agent: mms.SessionAgentID(f.agent.ID),
				EnvironmentID: f.env, InitialEvents: []mms.DeploymentInitialEvent{mms.NewUserMessageEvent("hi")}})
			return err
		},
	} {
		f.srv.InjectFault(mmstest.Fault{Path: "/v1/deployments", Statuses: []int{500}, AfterApply: true})
		if err := call(); !errors.Is(err, mms.ErrMaybeApplied) {
			t.Errorf("%s after a 500: %v, want ErrMaybeApplied", name, err)
		}
	}
	f.srv.InjectFault(mmstest.Fault{Path: "/v1/deployments", Statuses: []int{500}, AfterApply: true})
	if _, err := c.Deployments.Pause(ctx, d.ID); err != nil {
		t.Errorf("pause is resent after a 500: %v", err)
	}
}
