package mmstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Sessions endpoints (managed-agents beta):
//
//   - POST /v1/sessions creates a session ("sesn_…" ids). The body is
//     checked strictly (unknown members are a 400): an agent (a bare id:
//     its latest version; {type:"agent", id, version?}; or
//     {type:"agent_with_overrides", …} whose model, system (null clears),
//     tools, mcp_servers and skills replace the agent's), resolved from
//     the server's agents (an unknown agent or version is a 404) and
//     snapshotted into the record with its roster resolved (an agent id
//     is 1–128 characters); an environment_id (1–128); a title (≤ 500);
//     metadata (≤ 16 pairs, keys 1–64, values ≤ 512); resources
//     (github_repository with url ≤ 2,048 and authorization_token ≤ 4,096,
//     a branch name 1–255 or a commit sha of ≥ 7; file naming a stored
//     file, file_id ≤ 128; memory_store with access read_write|read_only
//     and instructions ≤ 4,096); vault_ids; at most 50 initial_events,
//     user.message (document sources base64, text, url or file) or
//     user.define_outcome (a text rubric ≤ 262,144; max_iterations 1–20,
//     where the service is stricter than its schema), each
//     outcome listed in outcome_evaluations as "pending"; a budget
//     {type:"limit", max_list_cost:{amount: decimal string, currency:"USD"}}.
//     A session starts "idle"; its initial events are stored as if sent to
//     its events endpoint (sessions_events.go) and its turn engine
//     (sessions_sim.go) takes them after the answer. A session whose
//     agent has a roster gets one thread per roster member at creation
//     (threads are created by the service's coordinator as it works; the
//     fake makes them up front).
//   - POST /v1/sessions/{session_id} updates title (1–500 characters;
//     null clears, "" is refused),
//     metadata (a patch, null deletes), agent {tools, mcp_servers} (each
//     replaced whole; the session must be idle) and budget (replace, or
//     null removes it; a session created without one cannot get one).
//     vault_ids is rejected.
//     A change emits session.updated carrying the changed members only.
//   - GET, DELETE /v1/sessions/{session_id} (emits session.deleted, ending
//     the open streams, and stops the turn engine), POST …/archive.
//   - GET /v1/sessions: newest first by default (order asc|desc), filters
//     agent_id, agent_version (only with agent_id), deployment_id,
//     memory_store_id, include_archived, statuses[],
//     created_at[gt|gte|lt|lte]; bidirectional cursors bound to their
//     order (one sent with the other order is a 400); prev_page is null on
//     the first page.
//
// Resources and threads are in sessions_resources.go and
// sessions_threads.go.

// sessionStore holds a server's sessions (Server.sessions).
type sessionStore struct {
	srv      *Server
	mu       sync.Mutex
	sessions []*storedSession // in creation order
	closed   bool             // Server.Close: no engine starts
	wg       sync.WaitGroup   // the running engines
}

// storedSession is a session with its resources and threads.
type storedSession struct {
	rec            sessionWire
	created        time.Time
	agentVersion   int
	resources      []*storedResource
	resourcesAdded int // ever, deleted ones included: the next resource's place
	threads        []*threadWire
	selfHosted     bool

	// The events (sessions_events.go) and the turn engine's state
	// (sessions_sim.go).
	log         eventLog
	threadLogs  map[string]*eventLog // by thread id
	seq         int                  // the last processed event's place
	pending     []*input             // sent events the engine has not taken yet
	awaiting    map[string]string    // waiting call id → what it waits for (awaitConfirm, …)
	callThread  map[string]string    // call id → the thread that made it
	engineOn    bool                 // the engine goroutine runs
	stopped     bool                 // terminated or deleted: the engine stops
	wake, stop  chan struct{}
	inTokens    int
	outTokens   int
	costMicros  int64
	threadUsage map[string][2]int
	// The running time: since runningSince while running, plus active.
	runningSince time.Time
	active       time.Duration
}

// sessionWire is the session record; resources are rendered from the
// stored ones.
type sessionWire struct {
	ID                 string            `json:"id"`
	Type               string            `json:"type"`
	Status             string            `json:"status"`
	Agent              sessionAgentWire  `json:"agent"`
	EnvironmentID      string            `json:"environment_id"`
	Title              *string           `json:"title"`
	Metadata           map[string]string `json:"metadata"`
	Resources          []json.RawMessage `json:"resources"`
	VaultIDs           []string          `json:"vault_ids"`
	OutcomeEvaluations []outcomeWire     `json:"outcome_evaluations"`
	Stats              json.RawMessage   `json:"stats"`
	Usage              json.RawMessage   `json:"usage"`
	Budget             *budgetWire       `json:"budget"`
	DeploymentID       *string           `json:"deployment_id,omitempty"`
	recordTimes
}

// sessionAgentWire is the agent snapshot of a session record; a roster
// member (a thread's agent) has no multiagent member.
type sessionAgentWire struct {
	Type        string          `json:"type"`
	ID          string          `json:"id"`
	Version     int             `json:"version"`
	Name        string          `json:"name"`
	Description *string         `json:"description"`
	System      *string         `json:"system"`
	Model       json.RawMessage `json:"model"`
	Tools       json.RawMessage `json:"tools"`
	MCPServers  json.RawMessage `json:"mcp_servers"`
	Skills      json.RawMessage `json:"skills"`
	Multiagent  json.RawMessage `json:"multiagent,omitempty"`
	// ExecutionIdentity is R2's member; absent for an advisor.
	ExecutionIdentity json.RawMessage `json:"execution_identity,omitempty"`
}

type outcomeWire struct {
	Type        string  `json:"type"`
	OutcomeID   string  `json:"outcome_id"`
	Description string  `json:"description"`
	Iteration   int     `json:"iteration"`
	Result      string  `json:"result"`
	Explanation *string `json:"explanation"`
	CompletedAt *string `json:"completed_at"`
}

type costWire struct {
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
}

type budgetWire struct {
	Type        string   `json:"type"`
	MaxListCost costWire `json:"max_list_cost"`
}

// sessionCreateBody is a create body as sent; raw members are checked
// one by one.
type sessionCreateBody struct {
	Agent         json.RawMessage   `json:"agent"`
	EnvironmentID *string           `json:"environment_id"`
	Title         *string           `json:"title"`
	Metadata      map[string]string `json:"metadata"`
	Resources     []json.RawMessage `json:"resources"`
	VaultIDs      []string          `json:"vault_ids"`
	InitialEvents []json.RawMessage `json:"initial_events"`
	Budget        json.RawMessage   `json:"budget"`

	// Filled by the checks: the agent snapshot, its roster and the
	// agent version it came from.
	snapshot sessionAgentWire
	roster   []json.RawMessage
	version  int
	// The parsed resources.
	resources []*storedResource
	// selfHosted: the environment is self-hosted, so the session is queued
	// for its workers.
	selfHosted bool
	// deploymentID names the deployment a run creates the session from
	// (deployments.go); "" for POST /v1/sessions.
	deploymentID string
}

// sessionAgentParam is the object form of a create body's agent.
type sessionAgentParam struct {
	Type       string          `json:"type"`
	ID         string          `json:"id"`
	Version    *int            `json:"version"`
	Model      json.RawMessage `json:"model"`
	System     json.RawMessage `json:"system"`
	Tools      json.RawMessage `json:"tools"`
	MCPServers json.RawMessage `json:"mcp_servers"`
	Skills     json.RawMessage `json:"skills"`
}

// strictDecode decodes raw into v, refusing unknown members; field
// prefixes the message.
func strictDecode(field string, raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			return invalid("%s.%s: Extra inputs are not permitted", field, strings.Trim(name, `"`))
		}
		return invalid("%s: %s", field, strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// writeErr answers with an *apiError, or a 400 carrying err's message.
func writeErr(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if errors.As(err, &ae) {
		writeAPIError(w, r, ae)
		return
	}
	writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
}

// checkLinks checks what a create body names in other stores and fills
// the body's agent snapshot and resources: the agent (and its version and
// roster) in the agent store, the environment (missing or archived: 404;
// a self-hosted one takes only memory_store resources), each vault and
// each memory store (missing or archived: 404) and each file resource in
// the file store (404).
func (st *sessionStore) checkLinks(b *sessionCreateBody) error {
	if err := st.resolveAgent(b); err != nil {
		return err
	}
	selfHosted, ok := st.srv.environments.sessionTarget(*b.EnvironmentID)
	if !ok {
		return &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Environment not found: " + *b.EnvironmentID}
	}
	b.selfHosted = selfHosted
	for _, id := range b.VaultIDs {
		if !st.srv.vaults.usable(id) {
			return &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Vault not found: " + id}
		}
	}
	for _, res := range b.resources {
		if res.kind == "memory_store" && !st.srv.memoryStores.usable(res.memoryStoreID) {
			return &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Memory store not found: " + res.memoryStoreID}
		}
	}
	for i, res := range b.resources {
		if selfHosted && res.kind != "memory_store" {
			return fmt.Errorf("resources.%d: self-hosted environments accept only memory_store resources", i)
		}
	}
	for _, res := range b.resources {
		if res.kind == "file" {
			if err := st.checkFile(res.fileID); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFile reports a file id the file store does not hold.
func (st *sessionStore) checkFile(id string) error {
	if st.srv.files.find(id) == nil {
		return &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "File not found: " + id}
	}
	return nil
}

// findAgentVersion returns an agent's version (0: the latest) from the
// agent store.
func (st *sessionStore) findAgentVersion(id string, version int) (agentWire, error) {
	as := st.srv.agents
	as.mu.Lock()
	defer as.mu.Unlock()
	i := slices.IndexFunc(as.agents, func(a *storedAgent) bool { return a.latest().ID == id })
	switch {
	case i < 0:
		return agentWire{}, &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Agent not found: " + id}
	case version == 0:
		return as.agents[i].latest(), nil
	case version < 1 || version > len(as.agents[i].versions):
		return agentWire{}, &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: fmt.Sprintf("Agent %s has no version %d", id, version)}
	}
	return as.agents[i].versions[version-1], nil
}

// snapshotOf is the session snapshot of an agent version, without a
// roster.
func snapshotOf(a agentWire) sessionAgentWire {
	return sessionAgentWire{Type: "agent", ID: a.ID, Version: a.Version, Name: a.Name, Description: a.Description, System: a.System,
		Model: a.Model, Tools: a.Tools, MCPServers: a.MCPServers, Skills: a.Skills, ExecutionIdentity: a.ExecutionIdentity}
}

// resolveAgent resolves the body's agent to a snapshot with its overrides
// and roster.
func (st *sessionStore) resolveAgent(b *sessionCreateBody) error {
	var p sessionAgentParam
	if json.Unmarshal(b.Agent, &p.ID) != nil {
		if err := strictDecode("agent", b.Agent, &p); err != nil {
			return err
		}
		overrides := p.Model != nil || p.System != nil || p.Tools != nil || p.MCPServers != nil || p.Skills != nil
		switch {
		case p.Type == "agent" && overrides:
			return invalid("agent: overrides need type \"agent_with_overrides\"")
		case p.Type != "agent" && p.Type != "agent_with_overrides":
			return invalid("agent.type: Input should be 'agent' or 'agent_with_overrides'")
		case p.Version != nil && *p.Version < 1:
			return invalid("agent.version: Input should be greater than or equal to 1")
		}
	}
	if p.ID == "" {
		return invalid("agent.id: Field required")
	}
	if textLen(p.ID) > wire.MaxAgentIDLen {
		field := "agent.id"
		if t := bytes.TrimSpace(b.Agent); len(t) > 0 && t[0] == '"' {
			field = "agent"
		}
		return invalid("%s: String should have at most %d characters", field, wire.MaxAgentIDLen)
	}
	if err := checkSkills("agent.skills", p.Skills); err != nil {
		return invalid("%v", err)
	}
	version := 0
	if p.Version != nil {
		version = *p.Version
	}
	a, err := st.findAgentVersion(p.ID, version)
	if err != nil {
		return err
	}
	snap := snapshotOf(a)
	if p.Model != nil {
		if snap.Model, err = normalModel(p.Model); err != nil {
			return invalid("agent.%v", err)
		}
	}
	if p.System != nil {
		if snap.System, err = optionalText("agent.system", p.System, wire.MaxAgentSystemLen); err != nil {
			return invalid("%v", err)
		}
	}
	for _, l := range []struct {
		raw json.RawMessage
		dst *json.RawMessage
	}{{p.Tools, &snap.Tools}, {p.MCPServers, &snap.MCPServers}, {p.Skills, &snap.Skills}} {
		if l.raw != nil {
			*l.dst = l.raw
			if clearsList(l.raw) {
				*l.dst = json.RawMessage("[]")
			}
		}
	}
	if err := checkTools(snap.Tools, snap.MCPServers); err != nil {
		return invalid("agent.%v", err)
	}
	b.version = a.Version
	snap.Multiagent = json.RawMessage("null")
	if multiagentType(a.Multiagent) == multiagent20261001 {
		if snap.Multiagent, b.roster, err = st.snapshotMultiagent(a); err != nil {
			return err
		}
	} else if !isNullJSON(a.Multiagent) && a.Multiagent != nil {
		roster, err := st.resolveRoster(a)
		if err != nil {
			return err
		}
		b.roster = roster
		snap.Multiagent = encodeJSON(map[string]any{"type": "coordinator", "agents": roster})
	}
	b.snapshot = snap
	return nil
}

// resolveRoster turns a coordinator's roster into thread agents: each
// agent (an id, {type:"agent", id, version?} or {type:"self"}) becomes its
// snapshot; an advisor stays as it is.
func (st *sessionStore) resolveRoster(coord agentWire) ([]json.RawMessage, error) {
	var m struct {
		Agents []json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal(coord.Multiagent, &m); err != nil {
		return nil, invalid("agent.multiagent: %v", err)
	}
	var out []json.RawMessage
	for _, e := range m.Agents {
		var entry struct {
			Type    string `json:"type"`
			ID      string `json:"id"`
			Version int    `json:"version"`
		}
		if json.Unmarshal(e, &entry.ID) != nil {
			_ = json.Unmarshal(e, &entry)
		}
		switch entry.Type {
		case "advisor":
			out = append(out, e)
			continue
		case "self":
			out = append(out, encodeJSON(snapshotOf(coord)))
			continue
		}
		a, err := st.findAgentVersion(entry.ID, entry.Version)
		if err != nil {
			return nil, err
		}
		out = append(out, encodeJSON(snapshotOf(a)))
	}
	return out, nil
}

// checkCreate applies the create body's own rules (links apart).
func (b *sessionCreateBody) check() error {
	switch {
	case b.Agent == nil || isNullJSON(b.Agent):
		return invalid("agent: Field required")
	case b.EnvironmentID == nil || *b.EnvironmentID == "":
		return invalid("environment_id: Field required")
	case textLen(*b.EnvironmentID) > wire.MaxEnvironmentIDLen:
		return invalid("environment_id: String should have at most %d characters", wire.MaxEnvironmentIDLen)
	case b.Title != nil && textLen(*b.Title) > wire.MaxSessionTitleLen:
		return invalid("title: String should have at most %d characters", wire.MaxSessionTitleLen)
	}
	if err := checkMetadata(b.Metadata); err != nil {
		return invalid("%v", err)
	}
	for i, raw := range b.Resources {
		res, err := parseResource(fmt.Sprintf("resources.%d", i), raw, true)
		if err != nil {
			return err
		}
		b.resources = append(b.resources, res)
	}
	for i, id := range b.VaultIDs {
		if id == "" {
			return invalid("vault_ids.%d: String should have at least 1 character", i)
		}
	}
	if len(b.InitialEvents) > wire.MaxInitialEvents {
		return invalid("initial_events: at most %d events are allowed, got %d", wire.MaxInitialEvents, len(b.InitialEvents))
	}
	for i, raw := range b.InitialEvents {
		if err := checkInitialEvent(fmt.Sprintf("initial_events.%d", i), raw); err != nil {
			return err
		}
	}
	if b.Budget != nil && !isNullJSON(b.Budget) {
		if _, err := parseBudget(b.Budget); err != nil {
			return err
		}
	}
	return nil
}

// parseBudget checks a budget object.
func parseBudget(raw json.RawMessage) (*budgetWire, error) {
	var bw budgetWire
	if err := strictDecode("budget", raw, &bw); err != nil {
		return nil, err
	}
	switch {
	case bw.Type != "limit":
		return nil, invalid("budget.type: Input should be 'limit'")
	case !isDecimalString(bw.MaxListCost.Amount):
		return nil, invalid("budget.max_list_cost.amount: Input should be a decimal string")
	case bw.MaxListCost.Currency != "USD":
		return nil, invalid("budget.max_list_cost.currency: Input should be 'USD'")
	}
	return &bw, nil
}

// isDecimalString reports digits with at most one inner '.'.
func isDecimalString(s string) bool {
	intPart, frac, dot := strings.Cut(s, ".")
	digits := func(p string) bool { return p != "" && strings.Trim(p, "0123456789") == "" }
	return digits(intPart) && (!dot || digits(frac))
}

// checkEventContent checks an event that is {type, content} and nothing
// else: content holds at least one block and check passes each.
func checkEventContent(path string, raw json.RawMessage, check func(path string, blk json.RawMessage) error) error {
	var ev struct {
		Type    string            `json:"type"`
		Content []json.RawMessage `json:"content"`
	}
	if err := strictDecode(path, raw, &ev); err != nil {
		return err
	}
	if len(ev.Content) == 0 {
		return invalid("%s.content: List should have at least 1 item", path)
	}
	for j, blk := range ev.Content {
		if err := check(fmt.Sprintf("%s.content.%d", path, j), blk); err != nil {
			return err
		}
	}
	return nil
}

// checkInitialEvent checks one initial event: a user.message with valid
// blocks or a user.define_outcome.
func checkInitialEvent(path string, raw json.RawMessage) error {
	var head struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(raw, &head)
	switch head.Type {
	case "user.message":
		return checkEventContent(path, raw, checkEventBlock)
	case "user.define_outcome":
		var ev struct {
			Type          string          `json:"type"`
			Description   *string         `json:"description"`
			Rubric        json.RawMessage `json:"rubric"`
			MaxIterations *int            `json:"max_iterations"`
		}
		if err := strictDecode(path, raw, &ev); err != nil {
			return err
		}
		if ev.Description == nil { // required, but "" is valid: the schema sets no minimum length
			return invalid("%s.description: Field required", path)
		}
		var rubric struct {
			Type    string `json:"type"`
			Content string `json:"content"`
			FileID  string `json:"file_id"`
		}
		if err := strictDecode(path+".rubric", ev.Rubric, &rubric); err != nil {
			return err
		}
		switch {
		case rubric.Type == "text" && rubric.Content != "" && rubric.FileID == "":
			if textLen(rubric.Content) > wire.MaxRubricContentLen {
				return invalid("%s.rubric.content: String should have at most %d characters", path, wire.MaxRubricContentLen)
			}
		case rubric.Type == "file" && rubric.FileID != "" && rubric.Content == "":
		default:
			return invalid("%s.rubric: Input should be {type:\"text\", content} or {type:\"file\", file_id}", path)
		}
		// At most 20: the service is stricter than its schema here
		// (agents-sessions-environments.md §4.2, row user.define_outcome).
		if n := ev.MaxIterations; n != nil && (*n < 1 || *n > wire.MaxOutcomeIterations) {
			return invalid("%s.max_iterations: Input should be between 1 and %d, got %d", path, wire.MaxOutcomeIterations, *n)
		}
		return nil
	}
	return invalid("%s.type: initial events must be user.message or user.define_outcome, got %q", path, head.Type)
}

// checkEventBlock checks one content block of a user.message: its type
// and the members that type allows.
func checkEventBlock(path string, raw json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return invalid("%s: Input should be an object", path)
	}
	var typ string
	_ = json.Unmarshal(m["type"], &typ)
	allowed := map[string][]string{
		"text": {"type", "text"}, "image": {"type", "source"}, "redacted": {"type"},
		"document": {"type", "source", "title", "context"},
	}[typ]
	if allowed == nil {
		return invalid("%s.type: Input should be 'text', 'image', 'document' or 'redacted', got %q", path, typ)
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			return invalid("%s.%s: Extra inputs are not permitted", path, k)
		}
	}
	for _, k := range allowed[1:] {
		if _, ok := m[k]; !ok && k != "title" && k != "context" {
			return invalid("%s.%s: Field required", path, k)
		}
	}
	if typ == "text" {
		var text string
		if json.Unmarshal(m["text"], &text) != nil || text == "" {
			return invalid("%s.text: String should have at least 1 character", path)
		}
	}
	if typ == "document" {
		return checkEventDocumentSource(path, m["source"])
	}
	return nil
}

// checkEventDocumentSource refuses a document source of a session event
// whose type is not base64, text, url or file (the Messages API's
// "content" source among them).
func checkEventDocumentSource(path string, raw json.RawMessage) error {
	var src struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(raw, &src) != nil || !slices.Contains(wire.EventDocumentSources, src.Type) {
		return invalid("%s.source.type: Input should be 'base64', 'text', 'url' or 'file', got %q", path, src.Type)
	}
	return nil
}

func (st *sessionStore) timestamp() string { return st.srv.now().UTC().Format(fileTimeLayout) }

// render is the session's record with its resources.
func (s *storedSession) render() sessionWire {
	rec := s.rec
	rec.OutcomeEvaluations = slices.Clone(rec.OutcomeEvaluations) // the engine updates them after st.mu is released
	rec.Resources = []json.RawMessage{}
	for _, res := range s.resources {
		rec.Resources = append(rec.Resources, res.render())
	}
	return rec
}

// create serves POST /v1/sessions.
func (st *sessionStore) create(w http.ResponseWriter, r *http.Request) {
	var b sessionCreateBody
	if badBody(w, r, &b) {
		return
	}
	if err := b.check(); err != nil {
		writeErr(w, r, err)
		return
	}
	if err := st.checkLinks(&b); err != nil {
		writeErr(w, r, err)
		return
	}
	if m := b.unbudgetableModel(); m != "" && b.Budget != nil && !isNullJSON(b.Budget) {
		writeCoded(w, r, codeModelNotBudgetable, "budget: model "+m+" has no public list price")
		return
	}
	out, err := st.start(&b)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// start creates the session of a checked body (its links resolved by
// checkLinks) and returns its record: POST /v1/sessions and a
// deployment's runs (deployments.go) both create sessions through it.
func (st *sessionStore) start(b *sessionCreateBody) (sessionWire, error) {
	now := st.srv.now()
	ts := st.timestamp()
	rec := sessionWire{ID: st.srv.newID("sesn_"), Type: "session", Status: "idle", Agent: b.snapshot,
		EnvironmentID: *b.EnvironmentID, Title: b.Title, Metadata: b.Metadata, VaultIDs: b.VaultIDs,
		OutcomeEvaluations: []outcomeWire{}, Stats: json.RawMessage(`{}`), Usage: json.RawMessage(`{}`),
		recordTimes: createdAt(ts)}
	if rec.Title != nil && *rec.Title == "" {
		rec.Title = nil
	}
	if b.deploymentID != "" {
		rec.DeploymentID = &b.deploymentID
	}
	if rec.Metadata == nil {
		rec.Metadata = map[string]string{}
	}
	if rec.VaultIDs == nil {
		rec.VaultIDs = []string{}
	}
	if b.Budget != nil && !isNullJSON(b.Budget) {
		rec.Budget, _ = parseBudget(b.Budget)
	}
	s := &storedSession{rec: rec, created: now, agentVersion: b.version, selfHosted: b.selfHosted,
		log: eventLog{subs: map[*subscriber]bool{}}, threadLogs: map[string]*eventLog{}, awaiting: map[string]string{},
		callThread: map[string]string{}, threadUsage: map[string][2]int{}, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	for _, res := range b.resources {
		st.attachResource(s, res, ts)
	}
	for _, agent := range b.roster {
		th := &threadWire{Type: "session_thread", ID: st.srv.newID("sthr_"), SessionID: rec.ID,
			Agent: agent, Status: "idle", Stats: json.RawMessage("null"), Usage: json.RawMessage("null"), recordTimes: createdAt(ts)}
		s.threads = append(s.threads, th)
		s.threadLogs[th.ID] = &eventLog{subs: map[*subscriber]bool{}}
	}
	out, err := st.add(s, b.InitialEvents)
	if err != nil {
		return sessionWire{}, err
	}
	if b.selfHosted {
		// A worker of the environment runs it (the work queue).
		st.srv.environments.enqueueSession(rec.EnvironmentID, rec.ID)
	}
	return out, nil
}

// add stores a new session with its initial events, sent as through the
// events endpoint (the answer shows them before the engine takes them),
// and returns its record. It holds st.mu while it stores.
func (st *sessionStore) add(s *storedSession, initial []json.RawMessage) (sessionWire, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	ins, awaiting, err := st.parseInputs("initial_events", s, initial)
	if err != nil {
		return sessionWire{}, err
	}
	st.sessions = append(st.sessions, s)
	if len(ins) > 0 {
		st.storeInputs(s, ins, awaiting)
	}
	return s.render(), nil
}

// lookup returns the session named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *sessionStore) lookup(w http.ResponseWriter, r *http.Request) *storedSession {
	return pathItem(w, r, st.sessions, "session_id", "Session", func(s *storedSession) string { return s.rec.ID })
}

// get serves GET /v1/sessions/{session_id}.
func (st *sessionStore) get(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		writeJSON(w, http.StatusOK, s.render())
	})
}

// sessionUpdateBody is an update body as sent.
type sessionUpdateBody struct {
	Title    json.RawMessage    `json:"title"`
	Metadata map[string]*string `json:"metadata"`
	Agent    *struct {
		Tools      json.RawMessage `json:"tools"`
		MCPServers json.RawMessage `json:"mcp_servers"`
	} `json:"agent"`
	Budget   json.RawMessage `json:"budget"`
	VaultIDs json.RawMessage `json:"vault_ids"`
}

// apply applies the update to rec.
func (b *sessionUpdateBody) apply(rec *sessionWire) error {
	if b.VaultIDs != nil {
		return invalid("vault_ids: a session's vaults cannot be changed after creation")
	}
	if b.Title != nil {
		if string(bytes.TrimSpace(b.Title)) == `""` {
			return invalid("title: String should have at least 1 character (null clears the title)")
		}
		t, err := optionalText("title", b.Title, wire.MaxSessionTitleLen)
		if err != nil {
			return invalid("%v", err)
		}
		rec.Title = t
	}
	if b.Metadata != nil {
		m := maps.Clone(rec.Metadata)
		for k, v := range b.Metadata {
			if v == nil {
				delete(m, k)
			} else {
				m[k] = *v
			}
		}
		if err := checkMetadata(m); err != nil {
			return invalid("%v", err)
		}
		rec.Metadata = m
	}
	if a := b.Agent; a != nil {
		if rec.Status != "idle" {
			return invalid("agent: the session must be idle to update its agent, it is %s", rec.Status)
		}
		agent := rec.Agent
		for _, l := range []struct {
			raw json.RawMessage
			dst *json.RawMessage
		}{{a.Tools, &agent.Tools}, {a.MCPServers, &agent.MCPServers}} {
			if l.raw != nil {
				*l.dst = l.raw
				if clearsList(l.raw) {
					*l.dst = json.RawMessage("[]")
				}
			}
		}
		if err := checkTools(agent.Tools, agent.MCPServers); err != nil {
			return invalid("agent.%v", err)
		}
		rec.Agent = agent
	}
	if b.Budget != nil {
		switch {
		case isNullJSON(b.Budget):
			rec.Budget = nil
		case rec.Budget == nil:
			return invalid("budget: a budget cannot be added after the session was created")
		default:
			bw, err := parseBudget(b.Budget)
			if err != nil {
				return err
			}
			rec.Budget = bw
		}
	}
	return nil
}

// update serves POST /v1/sessions/{session_id}.
func (st *sessionStore) update(w http.ResponseWriter, r *http.Request) {
	var b sessionUpdateBody
	if badBody(w, r, &b) {
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		if s.rec.ArchivedAt != nil {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "Archived sessions cannot be updated: "+s.rec.ID)
			return
		}
		if code, msg := budgetUpdateRefusal(s, b.Budget); msg != "" {
			writeCoded(w, r, code, msg)
			return
		}
		next := s.rec
		if err := b.apply(&next); err != nil {
			writeErr(w, r, err)
			return
		}
		if !bytes.Equal(encodeJSON(next), encodeJSON(s.rec)) {
			next.UpdatedAt = st.timestamp()
			changed := map[string]any{}
			for name, v := range map[string][2]any{"title": {s.rec.Title, next.Title}, "metadata": {s.rec.Metadata, next.Metadata},
				"agent": {s.rec.Agent, next.Agent}, "budget": {s.rec.Budget, next.Budget}} {
				if !bytes.Equal(encodeJSON(v[0]), encodeJSON(v[1])) {
					changed[name] = v[1]
				}
			}
			s.rec = next
			ev := st.newEvent("session.updated", "", changed) // only the changed fields (spec §3.4)
			st.markProcessed(s, ev)
			st.append(s, &s.log, ev)
		}
		writeJSON(w, http.StatusOK, s.render())
	})
}

// archive serves POST /v1/sessions/{session_id}/archive.
func (st *sessionStore) archive(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		s.rec.archive(st.srv.now())
		writeJSON(w, http.StatusOK, s.render())
	})
}

// delete serves DELETE /v1/sessions/{session_id}.
func (st *sessionStore) delete(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		st.finalEvent(s, "session.deleted", nil) // ends the open streams
		st.sessions = slices.DeleteFunc(st.sessions, func(x *storedSession) bool { return x == s })
		writeJSON(w, http.StatusOK, map[string]string{"id": s.rec.ID, "type": "session_deleted"})
	})
}

// sessionFilter is the list query of GET /v1/sessions.
type sessionFilter struct {
	order                                string
	agentID, deploymentID, memoryStoreID string
	agentVersion                         int
	archived                             bool
	statuses                             []string
	bounds                               createdRange
}

// parseSessionFilter reads the list query; the error is a 400 message.
func parseSessionFilter(q map[string][]string) (sessionFilter, error) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	f := sessionFilter{order: "desc", agentID: get("agent_id"), deploymentID: get("deployment_id"),
		memoryStoreID: get("memory_store_id")}
	if o := get("order"); o != "" {
		if o != "asc" && o != "desc" {
			return f, fmt.Errorf("order: Input should be 'asc' or 'desc'")
		}
		f.order = o
	}
	if v := get("agent_version"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil || n < 1:
			return f, fmt.Errorf("agent_version: Input should be an integer of at least 1")
		case f.agentID == "":
			return f, fmt.Errorf("agent_version: can only be used together with agent_id")
		}
		f.agentVersion = n
	}
	if v := get("include_archived"); v != "" {
		var err error
		if f.archived, err = strconv.ParseBool(v); err != nil {
			return f, fmt.Errorf("include_archived: Input should be a valid boolean")
		}
	}
	for _, s := range q["statuses[]"] {
		if !slices.Contains(wire.SessionStatuses, s) {
			return f, fmt.Errorf("statuses: Input should be 'rescheduling', 'running', 'idle' or 'terminated', got %q", s)
		}
		f.statuses = append(f.statuses, s)
	}
	var err error
	f.bounds, err = parseCreatedRange(q)
	return f, err
}

// keeps reports whether the filter keeps s.
func (f sessionFilter) keeps(s *storedSession) bool {
	switch {
	case s.rec.ArchivedAt != nil && !f.archived,
		f.agentID != "" && s.rec.Agent.ID != f.agentID,
		f.agentVersion != 0 && s.agentVersion != f.agentVersion,
		f.deploymentID != "" && (s.rec.DeploymentID == nil || *s.rec.DeploymentID != f.deploymentID),
		f.memoryStoreID != "" && !slices.ContainsFunc(s.resources, func(r *storedResource) bool { return r.memoryStoreID == f.memoryStoreID }),
		len(f.statuses) > 0 && !slices.Contains(f.statuses, s.rec.Status):
		return false
	}
	return f.bounds.holds(s.created)
}

// list serves GET /v1/sessions.
func (st *sessionStore) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f, err := parseSessionFilter(q)
	var page bidiPage[sessionWire]
	if err == nil { // else the 400 writePage answers
		recs := locked(&st.mu, func() (recs []sessionWire) {
			for _, s := range st.sessions {
				if f.keeps(s) {
					recs = append(recs, s.render())
				}
			}
			return recs
		})
		order := orderByID(func(s sessionWire) string { return s.ID }, f.order == "desc")
		page, err = pageBidirectional(recs, order, q, maxManagedPageLimit, f.order)
	}
	writePage(w, r, page, err)
}
