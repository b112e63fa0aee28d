package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// sessionFake is a fake server with a clock the test moves, a client,
// and an agent to run.
type sessionFake struct {
	srv   *mmstest.Server
	c     *mms.Client
	clock *mmstest.ManualClock
	agent *mms.Agent
	env   string // a cloud environment's id
	vault string // a vault's id
	// memoryStore is a memory store's id: a session's memory_store
	// resource must name one that exists.
	memoryStore string
}

func newSessionFake(t *testing.T) sessionFake {
	t.Helper()
	// A ManualClock: the session engines read the clock concurrently.
	clock := mmstest.NewManualClock(time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC))
	srv := mmstest.NewServer(mmstest.WithManualClock(clock))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	a, err := c.Agents.Create(context.Background(), mms.AgentCreateParams{Name: "worker", Model: mms.AgentModel("m"), System: "be brief",
		Tools: []mms.AgentTool{customTool("weather", "the weather")}})
	require.NoError(t, err)
	env, err := c.Environments.Create(context.Background(), mms.EnvironmentCreateParams{Name: "cloud"})
	require.NoError(t, err)
	vault, err := c.Vaults.Create(context.Background(), mms.VaultCreateParams{DisplayName: "keys"})
	require.NoError(t, err)
	store, err := c.MemoryStores.Create(context.Background(), mms.MemoryStoreCreateParams{Name: "notes"})
	require.NoError(t, err)
	return sessionFake{srv: srv, c: c, clock: clock, agent: a, env: env.ID, vault: vault.ID, memoryStore: store.ID}
}

func apiStatus(err error) int {
	var e *mms.Error
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

// TestSessionsAgainstFake runs the sessions operations against mmstest:
// the three agent forms resolved to snapshots, overrides, resources
// without their token, initial events, updates and their refusals,
// archive and delete.
func TestSessionsAgainstFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	if _, err := c.Agents.Update(ctx, f.agent.ID, mms.AgentUpdateParams{Version: f.agent.Version, System: mms.Set("v2 prompt")}); err != nil {
		t.Fatal(err)
	}

	s, err := c.Sessions.Create(ctx, mms.SessionCreateParams{
		Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env, Title: "first", Metadata: map[string]string{"k": "v"},
		Resources: []mms.SessionResourceParams{
			mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/repo.git", AuthorizationToken: mms.NewSecret("ghp_secret"), Checkout: mms.BranchCheckout{Name: "main"}},
			mms.MemoryStoreResourceParams{MemoryStoreID: f.memoryStore, Access: mms.MemoryStoreAccessReadOnly},
		},
		VaultIDs:      []string{f.vault},
		InitialEvents: []mms.SessionEventParams{mms.NewUserMessageEvent("hi"), mms.NewDefineOutcomeEvent("a report", mms.TextRubric{Content: "complete"})},
		Budget:        mms.Ptr(mms.BudgetUSD("10.00")),
	})
	require.NoError(t, err)
	if !strings.HasPrefix(s.ID, "sesn_") || s.Status != mms.SessionStatusIdle || s.Agent.Version != 2 || *s.Agent.System != "v2 prompt" ||
		s.Title == nil || *s.Title != "first" || !cmp.Equal(s.VaultIDs, []string{f.vault}) || len(s.OutcomeEvaluations) != 1 ||
		s.OutcomeEvaluations[0].Result != mms.OutcomeResultPending || s.Budget == nil || s.Agent.Multiagent != nil {
		t.Fatalf("created %+v", s)
	}
	repo, ok := s.Resources[0].(mms.GitHubRepositoryResource)
	if !ok || repo.MountPath != "/workspace/repo" || repo.Checkout.(mms.BranchCheckout).Name != "main" || strings.Contains(mustJSON(t, s), "ghp_secret") {
		t.Errorf("repository resource %+v", s.Resources[0])
	}
	if m, ok := s.Resources[1].(mms.MemoryStoreResource); !ok || m.Access != mms.MemoryStoreAccessReadOnly {
		t.Errorf("memory store %+v", s.Resources[1])
	}

	// A pinned version, and overrides.
	v1, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentRef{ID: f.agent.ID, Version: mms.Ptr(1)}, EnvironmentID: f.env})
	if err != nil || v1.Agent.Version != 1 || *v1.Agent.System != "be brief" || v1.Title != nil || v1.Budget != nil {
		t.Fatalf("pinned: %+v %v", v1, err)
	}
	o, err := c.Sessions.Create(ctx, mms.SessionCreateParams{EnvironmentID: f.env, Agent: mms.SessionAgentWithOverrides{
		ID: f.agent.ID, Model: mms.ModelConfigParams{ID: "m2", Effort: mms.EffortLow}, System: mms.Clear[string](), Tools: []mms.AgentTool{}}})
	if err != nil || o.Agent.Model.ID != "m2" || o.Agent.Model.Effort.Type != mms.EffortLow || o.Agent.System != nil || len(o.Agent.Tools) != 0 {
		t.Fatalf("overrides: %+v %v", o, err)
	}

	// Unknown agent or version: 404.
	for _, a := range []mms.SessionAgentParams{mms.SessionAgentID("agent_nope"), mms.SessionAgentRef{ID: f.agent.ID, Version: mms.Ptr(9)}} {
		if _, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: a, EnvironmentID: f.env}); apiStatus(err) != 404 {
			t.Errorf("agent %v: %v", a, err)
		}
	}

	// Updates need an idle session.
	waitSettled(t, c, s.ID, 1)

	// Updates: title, metadata, agent tools, budget; the refusals.
	f.clock.Advance(time.Minute)
	u, err := c.Sessions.Update(ctx, s.ID, mms.SessionUpdateParams{Title: mms.Clear[string](), Metadata: mms.MetadataPatch{}.Delete("k").Set("n", "1"),
		Agent:  &mms.SessionAgentUpdate{Tools: []mms.AgentTool{customTool("clock", "the time")}},
		Budget: mms.Set(mms.BudgetUSD("20"))})
	require.NoError(t, err)
	if u.Title != nil || !cmp.Equal(u.Metadata, map[string]string{"n": "1"}) || len(u.Agent.Tools) != 1 ||
		u.Budget.MaxListCost.Amount != "20" || u.UpdatedAt == u.CreatedAt {
		t.Errorf("updated %+v", u)
	}
	if u, err := c.Sessions.Update(ctx, s.ID, mms.SessionUpdateParams{Budget: mms.Clear[mms.SessionBudget]()}); err != nil || u.Budget != nil {
		t.Errorf("budget removed: %+v %v", u, err)
	}
	if _, err := c.Sessions.Update(ctx, s.ID, mms.SessionUpdateParams{Budget: mms.Set(mms.BudgetUSD("1"))}); apiStatus(err) != 400 {
		t.Errorf("budget added after create: %v", err)
	}
	got, err := c.Sessions.Get(ctx, s.ID)
	if err != nil || got.Budget != nil || got.ID != s.ID {
		t.Errorf("get %+v %v", got, err)
	}

	// Archive, then delete.
	a, err := c.Sessions.Archive(ctx, v1.ID)
	if err != nil || a.ArchivedAt == nil {
		t.Fatalf("archive %+v %v", a, err)
	}
	if _, err := c.Sessions.Update(ctx, v1.ID, mms.SessionUpdateParams{Title: mms.Set("x")}); apiStatus(err) != 400 {
		t.Errorf("update archived: %v", err)
	}
	d, err := c.Sessions.Delete(ctx, o.ID)
	if err != nil || d.ID != o.ID {
		t.Fatalf("delete %+v %v", d, err)
	}
	if _, err := c.Sessions.Get(ctx, o.ID); apiStatus(err) != 404 {
		t.Errorf("get deleted: %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestSessionsListAgainstFake: both directions of the bidirectional list,
// every filter, and the cursor/order refusal on both sides of the wire.
func TestSessionsListAgainstFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	other, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "other", Model: mms.AgentModel("m")})
	require.NoError(t, err)
	var ids []string
	for i := range 5 {
		p := mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env}
		if i == 3 {
			p.Agent = mms.SessionAgentID(other.ID)
			p.Resources = []mms.SessionResourceParams{mms.MemoryStoreResourceParams{MemoryStoreID: f.memoryStore}}
		}
		s, err := c.Sessions.Create(ctx, p)
		require.NoError(t, err)
		ids = append(ids, s.ID)
		f.clock.Advance(time.Hour)
	}
	if _, err := c.Agents.Update(ctx, f.agent.ID, mms.AgentUpdateParams{Version: f.agent.Version, Name: "worker2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Sessions.Archive(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	collect := func(p mms.SessionListParams) []string {
		t.Helper()
		var out []string
		for s, err := range c.Sessions.List(ctx, p) {
			require.NoError(t, err)
			out = append(out, s.ID)
		}
		return out
	}
	desc := slices.Clone(ids[1:])
	slices.Reverse(desc)
	t0 := time.Date(2026, 4, 2, 10, 0, 0, 0, time.UTC)
	for name, tt := range map[string]struct {
		p    mms.SessionListParams
		want []string
	}{
		"asc paged":       {mms.SessionListParams{Order: mms.ListOrderAsc, Limit: 2, CreatedLT: t0.Add(5 * time.Hour)}, ids[1:]},
		"desc default":    {mms.SessionListParams{Limit: 3, CreatedLTE: t0.Add(4 * time.Hour)}, desc},
		"archived":        {mms.SessionListParams{Order: mms.ListOrderAsc, IncludeArchived: true, CreatedLT: t0.Add(5 * time.Hour)}, ids},
		"agent":           {mms.SessionListParams{AgentID: other.ID}, ids[3:4]},
		"agent version 1": {mms.SessionListParams{Order: mms.ListOrderAsc, AgentID: f.agent.ID, AgentVersion: 1}, []string{ids[1], ids[2], ids[4]}},
		"memory store":    {mms.SessionListParams{MemoryStoreID: f.memoryStore}, ids[3:4]},
		"deployment":      {mms.SessionListParams{DeploymentID: "dep_1"}, nil},
		"statuses":        {mms.SessionListParams{Statuses: []mms.SessionStatus{mms.SessionStatusRunning, mms.SessionStatusTerminated}}, nil},
		"idle in window": {mms.SessionListParams{Order: mms.ListOrderAsc, Statuses: []mms.SessionStatus{mms.SessionStatusIdle},
			CreatedGT: t0.Add(time.Hour), CreatedGTE: t0, CreatedLT: t0.Add(4 * time.Hour)}, ids[2:4]},
	} {
		if got := collect(tt.p); !cmp.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", name, got, tt.want)
		}
	}

	// Backwards from the last page of an ascending list.
	p := mms.SessionListParams{Order: mms.ListOrderAsc, Limit: 2, CreatedLT: t0.Add(5 * time.Hour)}
	page, err := c.Sessions.ListPage(ctx, p)
	require.NoError(t, err)
	if page.PrevPage != nil || page.NextPage == nil || page.NextPage.Order != mms.ListOrderAsc {
		t.Fatalf("first page cursors %+v %+v", page.PrevPage, page.NextPage)
	}
	p.Page = *page.NextPage
	second, err := c.Sessions.ListPage(ctx, p)
	if err != nil || second.PrevPage == nil || second.NextPage != nil {
		t.Fatalf("second page %+v %v", second, err)
	}
	back := p
	back.Page, back.FollowPrevPage = *second.PrevPage, true
	if got := collect(back); !cmp.Equal(got, ids[1:3]) {
		t.Errorf("backward %v, want %v", got, ids[1:3])
	}

	// A cursor sent with the other order: the SDK refuses it, and so does
	// the service when the SDK cannot tell (a bare token).
	var ve *mms.ValidationError
	if _, err := c.Sessions.ListPage(ctx, mms.SessionListParams{Order: mms.ListOrderDesc, Page: *page.NextPage}); !errors.As(err, &ve) || ve.Field != "page" {
		t.Errorf("SDK check: %v", err)
	}
	_, err = c.Sessions.ListPage(ctx, mms.SessionListParams{Order: mms.ListOrderDesc, Page: mms.Cursor{Token: page.NextPage.Token}})
	if apiStatus(err) != 400 || !strings.Contains(err.Error(), "order") {
		t.Errorf("fake check: %v", err)
	}
}

// TestSessionResourcesAgainstFake: add a file, rotate a repository's
// token (the fake holds the new one, no answer shows it), get, list,
// delete.
func TestSessionResourcesAgainstFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	file, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "notes.txt", Reader: strings.NewReader("hello"), ContentType: "text/plain"})
	require.NoError(t, err)
	s, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env,
		Resources: []mms.SessionResourceParams{mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/r", AuthorizationToken: mms.NewSecret("old")}}})
	require.NoError(t, err)
	repo := s.Resources[0].(mms.GitHubRepositoryResource)
	added, err := c.Sessions.Resources.Add(ctx, s.ID, mms.FileResourceParams{FileID: file.ID})
	if err != nil || added.FileID != file.ID || added.MountPath != "/mnt/session/uploads/"+file.ID || added.ID == "" {
		t.Fatalf("added %+v %v", added, err)
	}
	if _, err := c.Sessions.Resources.Add(ctx, s.ID, mms.FileResourceParams{FileID: "file_nope"}); apiStatus(err) != 404 {
		t.Errorf("missing file: %v", err)
	}
	rotated, err := c.Sessions.Resources.Update(ctx, s.ID, repo.ID, mms.SessionResourceUpdateParams{AuthorizationToken: mms.NewSecret("new")})
	if err != nil || rotated.(mms.GitHubRepositoryResource).ID != repo.ID || strings.Contains(mustJSON(t, rotated), "new") {
		t.Fatalf("rotated %+v %v", rotated, err)
	}
	if tok, _ := f.srv.RepositoryToken(s.ID, repo.ID); tok != "new" {
		t.Errorf("token %q", tok)
	}
	if _, err := c.Sessions.Resources.Update(ctx, s.ID, added.ID, mms.SessionResourceUpdateParams{AuthorizationToken: mms.NewSecret("x")}); apiStatus(err) != 400 {
		t.Errorf("rotating a file: %v", err)
	}
	got, err := c.Sessions.Resources.Get(ctx, s.ID, added.ID)
	if fr, ok := got.(mms.FileResource); err != nil || !ok || fr.ID != added.ID {
		t.Errorf("get %+v %v", got, err)
	}
	var ids []string
	for r, err := range c.Sessions.Resources.List(ctx, s.ID, mms.SessionResourceListParams{Limit: 1}) {
		require.NoError(t, err)
		switch r := r.(type) {
		case mms.GitHubRepositoryResource:
			ids = append(ids, r.ID)
		case mms.FileResource:
			ids = append(ids, r.ID)
		}
	}
	if !cmp.Equal(ids, []string{repo.ID, added.ID}) {
		t.Errorf("listed %v", ids)
	}
	d, err := c.Sessions.Resources.Delete(ctx, s.ID, repo.ID)
	if err != nil || d.ID != repo.ID {
		t.Fatalf("delete %+v %v", d, err)
	}
	if _, err := c.Sessions.Resources.Get(ctx, s.ID, repo.ID); apiStatus(err) != 404 {
		t.Errorf("get deleted: %v", err)
	}
}

// TestSessionThreadsAgainstFake: a coordinator's session has one thread
// per roster member, each with its agent typed; get, list, archive.
func TestSessionThreadsAgainstFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	coord, err := c.Agents.Create(ctx, mms.AgentCreateParams{Name: "lead", Model: mms.AgentModel("m"), Multiagent: &mms.AgentMultiagent{
		Agents: []mms.RosterEntry{mms.RosterAgentID(f.agent.ID), mms.RosterAdvisor{Model: "adv"}}}})
	require.NoError(t, err)
	s, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(coord.ID), EnvironmentID: f.env})
	require.NoError(t, err)
	if m := s.Agent.Multiagent; m == nil || len(m.Agents) != 2 || m.Agents[0].(mms.SessionThreadAgent).Name != "worker" {
		t.Fatalf("roster %+v", s.Agent.Multiagent)
	}
	var threads []mms.SessionThread
	for th, err := range c.Sessions.Threads.List(ctx, s.ID, mms.SessionThreadListParams{Limit: 1}) {
		require.NoError(t, err)
		threads = append(threads, th)
	}
	if len(threads) != 2 || threads[0].Agent.(mms.SessionThreadAgent).ID != f.agent.ID || threads[1].Agent.(mms.RosterAdvisor).Model != "adv" ||
		threads[0].Status != mms.SessionStatusIdle || threads[0].Stats != nil || !strings.HasPrefix(threads[0].ID, "sthr_") {
		t.Fatalf("threads %+v", threads)
	}
	a, err := c.Sessions.Threads.Archive(ctx, s.ID, threads[1].ID)
	if err != nil || a.ArchivedAt == nil {
		t.Fatalf("archive %+v %v", a, err)
	}
	g, err := c.Sessions.Threads.Get(ctx, s.ID, threads[1].ID)
	if err != nil || g.ArchivedAt == nil || g.SessionID != s.ID {
		t.Errorf("get %+v %v", g, err)
	}
	plain, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: f.env})
	require.NoError(t, err)
	if page, err := c.Sessions.Threads.ListPage(ctx, plain.ID, mms.SessionThreadListParams{}); err != nil || len(page.Data) != 0 {
		t.Errorf("threads of a single-agent session: %+v %v", page, err)
	}
}

// TestSessionRequestShapesAcceptedByFake: every request form the SDK
// builds (each agent form, resource, checkout, content block, rubric,
// budget, and each update state) is one the fake's strict schema
// accepts.
func TestSessionRequestShapesAcceptedByFake(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	file, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "a.txt", Reader: strings.NewReader("x"), ContentType: "text/plain"})
	require.NoError(t, err)
	srvs, toolsets := servers(1)
	everything := mms.SessionCreateParams{EnvironmentID: f.env, Title: "t", Metadata: map[string]string{"k": "v"},
		Agent: mms.SessionAgentWithOverrides{ID: f.agent.ID, Version: mms.Ptr(1), Model: mms.ModelConfigParams{ID: "m", Effort: mms.EffortHigh, Speed: mms.ModelSpeedFast},
			System: mms.Set("s"), Tools: toolsets, MCPServers: srvs, Skills: []mms.AgentSkill{{Type: mms.SkillSourceCustom, SkillID: "skill_1", Version: mms.Ptr("2")}}},
		Resources: []mms.SessionResourceParams{
			mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/r", AuthorizationToken: mms.NewSecret("t"), MountPath: "/w", Checkout: mms.CommitCheckout{SHA: "abc1234"}},
			mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/s", AuthorizationToken: mms.NewSecret("t"), Checkout: mms.BranchCheckout{Name: "dev"}},
			mms.FileResourceParams{FileID: file.ID, MountPath: "/m"},
			mms.MemoryStoreResourceParams{MemoryStoreID: f.memoryStore, Access: mms.MemoryStoreAccessReadWrite, Instructions: "i"},
		},
		VaultIDs: []string{f.vault},
		InitialEvents: []mms.SessionEventParams{
			mms.NewUserMessageEventBlocks(mms.TextBlock{Text: "hi"}, mms.ImageFromURL("https://x/i.png"), mms.DocumentFromFile(file.ID), mms.RedactedBlock{}),
			mms.NewDefineOutcomeEvent("d", mms.TextRubric{Content: "c"}),
			mms.UserDefineOutcomeEventParams{Description: "d", Rubric: mms.FileRubric{FileID: file.ID}, MaxIterations: 20},
		},
		Budget: mms.Ptr(mms.BudgetUSD("12.50")),
	}
	s, err := c.Sessions.Create(ctx, everything)
	require.NoError(t, err)
	if len(s.Resources) != 4 || len(s.OutcomeEvaluations) != 2 || s.Agent.Model.Speed != mms.ModelSpeedFast || len(s.Agent.MCPServers) != 1 {
		t.Errorf("created %+v", s)
	}
	waitSettled(t, c, s.ID, 2) // updating the agent needs an idle session
	for _, p := range []mms.SessionUpdateParams{
		{Title: mms.Set("t2"), Metadata: mms.MetadataPatch{}.Set("a", "b").Delete("k"), Budget: mms.Set(mms.BudgetUSD("3"))},
		{Agent: &mms.SessionAgentUpdate{Tools: []mms.AgentTool{}, MCPServers: []mms.AgentMCPServer{}}},
		{Agent: &mms.SessionAgentUpdate{Tools: toolsets, MCPServers: srvs}},
		{Title: mms.Clear[string](), Budget: mms.Clear[mms.SessionBudget]()},
	} {
		if _, err := c.Sessions.Update(ctx, s.ID, p); err != nil {
			t.Errorf("update %+v: %v", p, err)
		}
	}
}

// TestSessionInSelfHostedEnvironmentIsPolled: a session created in a
// self-hosted environment reaches the environment's workers through the
// work queue, with credentials for the session.
func TestSessionInSelfHostedEnvironmentIsPolled(t *testing.T) {
	f := newSessionFake(t)
	c, ctx := f.c, context.Background()
	env, err := c.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "mine", Config: mms.SelfHostedEnvironmentConfig{}})
	require.NoError(t, err)
	_, err = c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: env.ID,
		Resources: []mms.SessionResourceParams{mms.FileResourceParams{FileID: "file_1"}}})
	if apiStatus(err) != 400 {
		t.Errorf("a file resource in a self-hosted environment: %v, want a 400", err)
	}
	s, err := c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(f.agent.ID), EnvironmentID: env.ID})
	require.NoError(t, err)
	w, err := c.Environments.Work.Poll(ctx, env.ID, mms.EnvironmentWorkPollParams{BlockMS: mms.Ptr(0), WorkerID: "w1"})
	if err != nil || w == nil {
		t.Fatalf("poll: %v, %v", w, err)
	}
	if d, ok := w.Data.(mms.WorkSession); !ok || d.ID != s.ID {
		t.Errorf("work data %#v, want session %s", w.Data, s.ID)
	}
	creds, err := w.SessionCredentials()
	if err != nil || creds.SessionsToken.Reveal() == "" {
		t.Errorf("session credentials: %v", err)
	}
}

// waitSettled waits until the fake's engine has run a session's initial
// events: evaluations outcome evaluations ended, and the session went idle
// after the last of them. (Its status is idle before the engine starts
// too, so the status alone cannot tell.)
func waitSettled(t *testing.T, c *mms.Client, sessionID string, evaluations int) {
	t.Helper()
	waitFor(t, func() bool {
		ended, idleAfter := 0, false
		for ev, err := range c.Sessions.Events.List(context.Background(), sessionID, mms.SessionEventListParams{}) {
			require.NoError(t, err)
			switch ev.EventType() {
			case "span.outcome_evaluation_end":
				ended, idleAfter = ended+1, false
			case "session.status_idle":
				idleAfter = ended >= evaluations
			case "session.status_running":
				idleAfter = false
			}
		}
		return ended >= evaluations && idleAfter
	})
}
