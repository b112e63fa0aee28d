package mmstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Deployments endpoints (managed-agents beta; the rule chain refuses a
// request without it), deployments-dreams-compliance.md §1:
//
//   - POST /v1/deployments creates a deployment ("depl_…" ids), checked
//     strictly (an unknown member is a 400): name (non-empty), agent (a
//     bare id: its latest version; or {type?:"agent", id, version?≥1}),
//     resolved from the agents (unknown: 404; archived: 400) and pinned to
//     its version; environment_id (missing or archived: 404);
//     initial_events, 1–50 of user.message and user.define_outcome (as a
//     session's) and system.message (text only, at most one, last, right
//     after a user.message); resources (≤ 500, as a session's, except
//     that a github_repository's authorization_token may be left out; the
//     token is kept for the sessions and never returned; files, memory
//     stores checked in their stores); vault_ids (≤ 50, each a live
//     vault); metadata (≤ 16 pairs, keys 1–64, values ≤ 512); schedule
//     {type:"cron", expression, timezone} (the 5-field grammar of
//     wire.ParseCron; the zone loaded with time.LoadLocation); budget
//     {type:"limit", max_list_cost:{amount: integer string of minor units,
//     currency:"USD"}}.
//   - GET /v1/deployments/{deployment_id}; POST …/{deployment_id} updates:
//     name (non-empty), agent, environment_id and initial_events cannot
//     be cleared (null is a 400); description ("" or null clears),
//     resources and vault_ids ([] or null clears) and schedule and budget
//     (null clears) are replaced whole; metadata is a patch (null deletes).
//   - POST …/pause makes it paused with paused_reason {type:"manual"};
//     POST …/unpause makes it active; POST …/archive sets archived_at
//     (again: unchanged), status active, paused_reason null, no upcoming
//     runs; an archived deployment refuses pause, unpause and run (400).
//   - POST …/run creates a session from the deployment now (paused or
//     not) and answers the run {trigger_context:{type:"manual"}}: its
//     session_id, or, when the session cannot be created (a link gone: an
//     archived agent, a missing environment, vault, file or memory store;
//     resources on a self-hosted environment), its error {type, message}.
//   - The schedule fires on the server's clock: before answering any
//     deployments or runs request, each active, unarchived deployment
//     whose cron matched since the last look (at most 10 fires per look)
//     gets a run {type:"schedule", scheduled_at} (no jitter), its session
//     created as above; last_run_at is set. A scheduled run whose error
//     is one of §1.9's pauses the deployment with {type:"error", error:
//     {type}}. upcoming_runs_at lists the next 5 fires (UTC).
//   - GET /v1/deployments: newest first; agent_id, include_archived,
//     status (not with include_archived: 400), created_at[gte|lte];
//     cursor pages of at most 100.
//   - GET /v1/deployment_runs/{deployment_run_id} ("drun_…");
//     GET /v1/deployment_runs: newest first; deployment_id (unknown: an
//     empty page), trigger_type (schedule|manual), has_error,
//     created_at[gt|gte|lt|lte]; cursor pages of at most 1,000.
//
// Sessions created by runs carry deployment_id.

// deploymentStore holds a server's deployments and their runs
// (Server.deployments).
type deploymentStore struct {
	srv         *Server
	mu          sync.Mutex
	deployments []*storedDeployment  // in creation order
	runs        []*deploymentRunWire // in creation order
}

// storedDeployment is a deployment with what its record does not show.
type storedDeployment struct {
	rec     deploymentWire
	created time.Time
	// resources are the create or update body's resources, tokens
	// included, for the sessions of its runs.
	resources []json.RawMessage
	cron      *wire.Cron
	loc       *time.Location
	// lookedAt is when the schedule was last checked for fires.
	lookedAt time.Time
	// rev counts the changes of the record, so an update checked outside
	// the lock sees whether it changed meanwhile.
	rev int
}

// deploymentWire is the deployment record; schedule.upcoming_runs_at is
// filled when rendered.
type deploymentWire struct {
	ID            string            `json:"id"`
	Type          string            `json:"type"`
	Name          string            `json:"name"`
	Description   *string           `json:"description"`
	Agent         agentRefWire      `json:"agent"`
	EnvironmentID string            `json:"environment_id"`
	InitialEvents []json.RawMessage `json:"initial_events"`
	Resources     []json.RawMessage `json:"resources"`
	VaultIDs      []string          `json:"vault_ids"`
	Metadata      map[string]string `json:"metadata"`
	Schedule      *scheduleWire     `json:"schedule"`
	Status        string            `json:"status"`
	PausedReason  json.RawMessage   `json:"paused_reason"`
	Budget        *budgetWire       `json:"budget,omitempty"`
	recordTimes
}

// agentRefWire is {type:"agent", id, version}.
type agentRefWire struct {
	Type    string `json:"type"`
	ID      string `json:"id"`
	Version int    `json:"version"`
}

// scheduleWire is a deployment's schedule.
type scheduleWire struct {
	Type           string   `json:"type"`
	Expression     string   `json:"expression"`
	Timezone       string   `json:"timezone"`
	UpcomingRunsAt []string `json:"upcoming_runs_at"`
	LastRunAt      *string  `json:"last_run_at"`
}

// deploymentRunWire is the run record.
type deploymentRunWire struct {
	ID             string          `json:"id"`
	Type           string          `json:"type"`
	DeploymentID   string          `json:"deployment_id"`
	Agent          agentRefWire    `json:"agent"`
	TriggerContext json.RawMessage `json:"trigger_context"`
	SessionID      *string         `json:"session_id"`
	Error          *runErrorWire   `json:"error"`
	CreatedAt      string          `json:"created_at"`
	created        time.Time
}

// runErrorWire is a run's error.
type runErrorWire struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// deploymentBody is a create or update body, members kept raw so that
// absent (nil), null and values differ.
type deploymentBody struct {
	Name          json.RawMessage `json:"name"`
	Description   json.RawMessage `json:"description"`
	Agent         json.RawMessage `json:"agent"`
	EnvironmentID json.RawMessage `json:"environment_id"`
	InitialEvents json.RawMessage `json:"initial_events"`
	Resources     json.RawMessage `json:"resources"`
	VaultIDs      json.RawMessage `json:"vault_ids"`
	Metadata      json.RawMessage `json:"metadata"`
	Schedule      json.RawMessage `json:"schedule"`
	Budget        json.RawMessage `json:"budget"`
}

// autoPausing are the run errors that pause a deployment when a scheduled
// run meets them (§1.9).
var autoPausing = []string{"environment_archived_error", "agent_archived_error", "environment_not_found_error",
	"vault_not_found_error", "vault_archived_error", "file_not_found_error", "memory_store_archived_error",
	"skill_not_found_error", "session_resource_not_found_error", "workspace_archived_error",
	"organization_disabled_error", "self_hosted_resources_unsupported_error", "mcp_egress_blocked_error", "unknown_error"}

// create serves POST /v1/deployments.
func (st *deploymentStore) create(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	var b deploymentBody
	if badBody(w, r, &b) {
		return
	}
	for _, m := range []struct {
		name string
		raw  json.RawMessage
	}{{"name", b.Name}, {"agent", b.Agent}, {"environment_id", b.EnvironmentID}, {"initial_events", b.InitialEvents}} {
		if m.raw == nil || isNullJSON(m.raw) {
			badRequest(w, r, fmt.Errorf("%s: Field required", m.name))
			return
		}
	}
	now := st.srv.now()
	ts := now.UTC().Format(fileTimeLayout)
	d := &storedDeployment{created: now, lookedAt: now, rec: deploymentWire{Type: "deployment", Status: "active",
		PausedReason: json.RawMessage("null"), Resources: []json.RawMessage{}, VaultIDs: []string{}, recordTimes: createdAt(ts)}}
	if err := st.apply(d, &b, true); err != nil {
		writeErr(w, r, err)
		return
	}
	d.rec.ID = st.srv.newID("depl_")
	writeJSON(w, http.StatusOK, appendLocked(&st.mu, &st.deployments, d, func(d *storedDeployment) deploymentWire { return st.render(d, now) }))
}

// apply checks the body's members and applies them to d (create: every
// member; update: those sent). The links are checked in their stores
// before d.mu is needed, so no lock of this store is held.
func (st *deploymentStore) apply(d *storedDeployment, b *deploymentBody, create bool) error {
	cannotClear := func(field string, raw json.RawMessage) error {
		if raw != nil && isNullJSON(raw) {
			return invalid("%s: cannot be cleared", field)
		}
		return nil
	}
	for _, m := range []struct {
		name string
		raw  json.RawMessage
	}{{"name", b.Name}, {"agent", b.Agent}, {"environment_id", b.EnvironmentID}, {"initial_events", b.InitialEvents}} {
		if err := cannotClear(m.name, m.raw); err != nil {
			return err
		}
	}
	rec := d.rec
	if b.Name != nil {
		name, err := checkedMember("name", b.Name, false, notEmpty("name"))
		if err != nil {
			return invalid("%v", err)
		}
		rec.Name = *name
	}
	if b.Description != nil {
		desc, err := stringMember("description", b.Description, true)
		if err != nil {
			return invalid("%v", err)
		}
		if desc != nil && *desc == "" {
			desc = nil
		}
		rec.Description = desc
	}
	if b.Agent != nil {
		a, err := st.resolveAgent(b.Agent)
		if err != nil {
			return err
		}
		rec.Agent = a
	}
	if b.EnvironmentID != nil {
		env, err := checkedMember("environment_id", b.EnvironmentID, false, notEmpty("environment_id"))
		if err != nil {
			return invalid("%v", err)
		}
		if _, ok := st.srv.environments.sessionTarget(*env); !ok {
			return &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Environment not found: " + *env}
		}
		rec.EnvironmentID = *env
	}
	if b.InitialEvents != nil {
		events, err := checkDeploymentEvents(b.InitialEvents)
		if err != nil {
			return err
		}
		rec.InitialEvents = events
	}
	resources := d.resources
	if b.Resources != nil {
		var err error
		if resources, rec.Resources, err = st.checkResources(b.Resources); err != nil {
			return err
		}
	}
	if b.VaultIDs != nil {
		ids, err := st.checkVaults(b.VaultIDs)
		if err != nil {
			return err
		}
		rec.VaultIDs = ids
	}
	meta, err := patchMetadata(rec.Metadata, b.Metadata, create, false)
	if err != nil {
		return invalid("%v", err)
	}
	rec.Metadata = meta
	cron, loc := d.cron, d.loc
	if b.Schedule != nil {
		if rec.Schedule, cron, loc, err = parseSchedule(b.Schedule); err != nil {
			return err
		}
		if rec.Schedule != nil && d.rec.Schedule != nil {
			rec.Schedule.LastRunAt = d.rec.Schedule.LastRunAt // the schedule's history stays
		}
	}
	if b.Budget != nil {
		rec.Budget = nil
		if !isNullJSON(b.Budget) {
			if rec.Budget, err = parseBudget(b.Budget); err != nil {
				return err
			}
			if strings.Trim(rec.Budget.MaxListCost.Amount, "0123456789") != "" {
				return invalid("budget.max_list_cost.amount: Input should be an integer string of minor units (\"2500\" = $25.00)")
			}
		}
	}
	d.rec, d.resources, d.cron, d.loc = rec, resources, cron, loc
	return nil
}

// resolveAgent reads an agent member and pins it to a version.
func (st *deploymentStore) resolveAgent(raw json.RawMessage) (agentRefWire, error) {
	var p struct {
		Type    *string `json:"type"`
		ID      string  `json:"id"`
		Version *int    `json:"version"`
	}
	if json.Unmarshal(raw, &p.ID) != nil {
		if err := strictDecode("agent", raw, &p); err != nil {
			return agentRefWire{}, err
		}
		switch {
		case p.Type != nil && *p.Type != "agent":
			return agentRefWire{}, invalid("agent.type: Input should be 'agent'")
		case p.Version != nil && *p.Version < 1:
			return agentRefWire{}, invalid("agent.version: Input should be greater than or equal to 1")
		}
	}
	if p.ID == "" {
		return agentRefWire{}, invalid("agent.id: Field required")
	}
	version := 0
	if p.Version != nil {
		version = *p.Version
	}
	a, err := st.srv.sessions.findAgentVersion(p.ID, version)
	if err != nil {
		return agentRefWire{}, err
	}
	if st.agentArchived(p.ID) {
		return agentRefWire{}, invalid("agent: agent %s is archived", p.ID)
	}
	return agentRefWire{Type: "agent", ID: a.ID, Version: a.Version}, nil
}

// agentArchived reports whether the agent id names is archived.
func (st *deploymentStore) agentArchived(id string) bool {
	as := st.srv.agents
	return locked(&as.mu, func() bool {
		i := slices.IndexFunc(as.agents, func(a *storedAgent) bool { return a.latest().ID == id })
		return i >= 0 && as.agents[i].latest().ArchivedAt != nil
	})
}

// checkDeploymentEvents checks initial_events: 1–50 user.message,
// user.define_outcome and system.message (at most one, last, right after
// a user.message).
func checkDeploymentEvents(raw json.RawMessage) ([]json.RawMessage, error) {
	var events []json.RawMessage
	if err := json.Unmarshal(raw, &events); err != nil {
		return nil, invalid("initial_events: Input should be a valid list")
	}
	switch n := len(events); {
	case n == 0:
		return nil, invalid("initial_events: List should have at least 1 item")
	case n > wire.MaxInitialEvents:
		return nil, invalid("initial_events: at most %d events are allowed, got %d", wire.MaxInitialEvents, n)
	}
	prev := ""
	for i, ev := range events {
		path := fmt.Sprintf("initial_events.%d", i)
		var head struct {
			Type string `json:"type"`
		}
		_ = json.Unmarshal(ev, &head)
		if head.Type == "system.message" {
			if err := checkSystemMessage(path, ev); err != nil {
				return nil, err
			}
			switch {
			case i != len(events)-1:
				return nil, invalid("%s: a system.message must be the last initial event", path)
			case prev != "user.message":
				return nil, invalid("%s: a system.message must directly follow a user.message", path)
			}
		} else if err := checkInitialEvent(path, ev); err != nil {
			return nil, invalid("%s", strings.Replace(err.Error(), "must be user.message or user.define_outcome",
				"must be user.message, user.define_outcome or system.message", 1))
		}
		prev = head.Type
	}
	return events, nil
}

// checkSystemMessage checks a system.message: {type, content} with at
// least one non-empty text block and nothing else.
func checkSystemMessage(path string, raw json.RawMessage) error {
	return checkEventContent(path, raw, func(path string, b json.RawMessage) error {
		var tb textWire
		if err := strictDecode(path, b, &tb); err != nil || tb.Type != "text" || tb.Text == "" {
			return invalid("%s: Input should be a text block {type:\"text\", text} with non-empty text", path)
		}
		return nil
	})
}

// checkResources checks a resources member (null or [] clears) and
// returns the resources as sent and as the record shows them.
func (st *deploymentStore) checkResources(raw json.RawMessage) ([]json.RawMessage, []json.RawMessage, error) {
	var list []json.RawMessage
	if !isNullJSON(raw) {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, nil, invalid("resources: Input should be a valid list")
		}
	}
	if len(list) > wire.MaxDeploymentResources {
		return nil, nil, invalid("resources: at most %d resources are allowed, got %d", wire.MaxDeploymentResources, len(list))
	}
	recs := []json.RawMessage{}
	for i, res := range list {
		field := fmt.Sprintf("resources.%d", i)
		checked := res
		var m map[string]json.RawMessage
		if json.Unmarshal(res, &m) == nil && string(m["type"]) == `"github_repository"` && m["authorization_token"] == nil {
			// A public repository needs no token: check the rest with a
			// stand-in, never stored.
			m["authorization_token"] = json.RawMessage(`"-"`)
			checked = encodeJSON(m)
		}
		parsed, err := parseResource(field, checked, true)
		if err != nil {
			return nil, nil, err
		}
		switch parsed.kind {
		case "file":
			if err := st.srv.sessions.checkFile(parsed.fileID); err != nil {
				return nil, nil, err
			}
		case "memory_store":
			if !st.srv.memoryStores.usable(parsed.memoryStoreID) {
				return nil, nil, &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Memory store not found: " + parsed.memoryStoreID}
			}
		}
		recs = append(recs, resourceConfig(m, parsed.kind))
	}
	return list, recs, nil
}

// resourceConfig is a resource's record: its params without the token,
// unset optional members null.
func resourceConfig(m map[string]json.RawMessage, kind string) json.RawMessage {
	or := func(k string) json.RawMessage {
		if v := m[k]; v != nil {
			return v
		}
		return json.RawMessage("null")
	}
	switch kind {
	case "github_repository":
		return encodeJSON(map[string]json.RawMessage{"type": m["type"], "url": m["url"], "mount_path": or("mount_path"), "checkout": or("checkout")})
	case "file":
		return encodeJSON(map[string]json.RawMessage{"type": m["type"], "file_id": m["file_id"], "mount_path": or("mount_path")})
	}
	return encodeJSON(map[string]json.RawMessage{"type": m["type"], "memory_store_id": m["memory_store_id"],
		"access": or("access"), "instructions": or("instructions")})
}

// checkVaults checks vault_ids (null or [] clears): at most 50, each a
// live vault.
func (st *deploymentStore) checkVaults(raw json.RawMessage) ([]string, error) {
	ids := []string{}
	if !isNullJSON(raw) {
		if err := json.Unmarshal(raw, &ids); err != nil || ids == nil {
			return nil, invalid("vault_ids: Input should be a valid list of strings")
		}
	}
	if len(ids) > wire.MaxDeploymentVaultIDs {
		return nil, invalid("vault_ids: at most %d ids are allowed, got %d", wire.MaxDeploymentVaultIDs, len(ids))
	}
	for i, id := range ids {
		if id == "" {
			return nil, invalid("vault_ids.%d: String should have at least 1 character", i)
		}
		if !st.srv.vaults.usable(id) {
			return nil, &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Vault not found: " + id}
		}
	}
	return ids, nil
}

// parseSchedule reads a schedule member: null clears it.
func parseSchedule(raw json.RawMessage) (*scheduleWire, *wire.Cron, *time.Location, error) {
	if isNullJSON(raw) {
		return nil, nil, nil, nil
	}
	var s struct {
		Type       string  `json:"type"`
		Expression *string `json:"expression"`
		Timezone   *string `json:"timezone"`
	}
	if err := strictDecode("schedule", raw, &s); err != nil {
		return nil, nil, nil, err
	}
	switch {
	case s.Type != "cron":
		return nil, nil, nil, invalid("schedule.type: Input should be 'cron'")
	case s.Expression == nil:
		return nil, nil, nil, invalid("schedule.expression: Field required")
	case s.Timezone == nil || *s.Timezone == "":
		return nil, nil, nil, invalid("schedule.timezone: Field required")
	}
	cron, err := wire.ParseCron(*s.Expression)
	if err != nil {
		return nil, nil, nil, invalid("schedule.expression: %v", err)
	}
	loc, err := time.LoadLocation(*s.Timezone)
	if err != nil || *s.Timezone == "Local" {
		return nil, nil, nil, invalid("schedule.timezone: %q is not an IANA time zone", *s.Timezone)
	}
	return &scheduleWire{Type: "cron", Expression: *s.Expression, Timezone: *s.Timezone}, cron, loc, nil
}

// render is d's record at now: the schedule's next 5 fires (none once
// archived). st.mu is held.
func (st *deploymentStore) render(d *storedDeployment, now time.Time) deploymentWire {
	rec := d.rec
	rec.InitialEvents = slices.Clone(rec.InitialEvents)
	if rec.Schedule != nil {
		s := *rec.Schedule
		s.UpcomingRunsAt = []string{}
		if rec.ArchivedAt == nil && d.cron != nil {
			t := now.In(d.loc)
			for range 5 {
				if t = d.cron.Next(t); t.IsZero() {
					break
				}
				s.UpcomingRunsAt = append(s.UpcomingRunsAt, t.UTC().Format(time.RFC3339))
			}
		}
		rec.Schedule = &s
	}
	return rec
}

// lookup returns the deployment the path names, or answers 404; st.mu is
// held.
func (st *deploymentStore) lookup(w http.ResponseWriter, r *http.Request) *storedDeployment {
	return pathItem(w, r, st.deployments, "deployment_id", "Deployment", func(d *storedDeployment) string { return d.rec.ID })
}

// live is lookup refusing an archived deployment (400).
func (st *deploymentStore) live(w http.ResponseWriter, r *http.Request) *storedDeployment {
	d := st.lookup(w, r)
	if d != nil && d.rec.ArchivedAt != nil {
		badRequest(w, r, fmt.Errorf("deployment %s is archived", d.rec.ID))
		return nil
	}
	return d
}

// get serves GET /v1/deployments/{deployment_id}.
func (st *deploymentStore) get(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	withFound(&st.mu, w, r, st.lookup, func(d *storedDeployment) { writeJSON(w, http.StatusOK, st.render(d, st.srv.now())) })
}

// update serves POST /v1/deployments/{deployment_id}. The body's links
// are checked on a copy outside the lock; the copy replaces the record
// unless the deployment changed meanwhile (then the update is applied
// again to the newer record).
func (st *deploymentStore) update(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	var b deploymentBody
	if badBody(w, r, &b) {
		return
	}
	for {
		var cur storedDeployment
		var found bool
		withFound(&st.mu, w, r, st.lookup, func(d *storedDeployment) { cur, found = *d, true })
		if !found {
			return
		}
		next := cur
		if err := st.apply(&next, &b, false); err != nil {
			writeErr(w, r, err)
			return
		}
		done := false
		withFound(&st.mu, w, r, st.lookup, func(d *storedDeployment) {
			if d.rev != cur.rev {
				return // changed meanwhile: apply again
			}
			next.rec.UpdatedAt = st.srv.now().UTC().Format(fileTimeLayout)
			if next.cron != cur.cron {
				next.lookedAt = st.srv.now() // a new schedule fires from now on
			}
			next.rev++
			*d, done = next, true
			writeJSON(w, http.StatusOK, st.render(d, st.srv.now()))
		})
		if done || !locked(&st.mu, func() bool { return byID(st.deployments, r.PathValue("deployment_id"), deploymentID) != nil }) {
			return
		}
	}
}

func deploymentID(d *storedDeployment) string { return d.rec.ID }

// setStatus answers a pause or an unpause: status, with reason (nil for
// none).
func (st *deploymentStore) setStatus(status string, reason json.RawMessage) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		st.fireDue()
		withFound(&st.mu, w, r, st.live, func(d *storedDeployment) {
			now := st.srv.now()
			if d.rec.Status != status || (status == "paused" && string(d.rec.PausedReason) != string(reason)) {
				d.rec.Status, d.rec.PausedReason = status, reason
				d.rev++
				d.rec.UpdatedAt = now.UTC().Format(fileTimeLayout)
				if status == "active" {
					d.lookedAt = now // fires missed while paused are not made up
				}
			}
			writeJSON(w, http.StatusOK, st.render(d, now))
		})
	}
}

// archive serves POST /v1/deployments/{deployment_id}/archive.
func (st *deploymentStore) archive(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	withFound(&st.mu, w, r, st.lookup, func(d *storedDeployment) {
		now := st.srv.now()
		if d.rec.ArchivedAt == nil {
			d.rec.archive(now)
			d.rec.Status, d.rec.PausedReason = "active", json.RawMessage("null")
			d.rev++
		}
		writeJSON(w, http.StatusOK, st.render(d, now))
	})
}

// runNow serves POST /v1/deployments/{deployment_id}/run.
func (st *deploymentStore) runNow(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	var snap storedDeployment
	var found bool
	withFound(&st.mu, w, r, st.live, func(d *storedDeployment) { snap, found = *d, true })
	if !found {
		return
	}
	run := st.run(&snap, json.RawMessage(`{"type":"manual"}`))
	writeJSON(w, http.StatusOK, appendLocked(&st.mu, &st.runs, run, func(run *deploymentRunWire) deploymentRunWire { return *run }))
}

// run creates the session of one run of d (a snapshot, taken under st.mu,
// which is not held now) and returns the run's record, not yet stored.
func (st *deploymentStore) run(d *storedDeployment, trigger json.RawMessage) *deploymentRunWire {
	now := st.srv.now()
	run := &deploymentRunWire{ID: st.srv.newID("drun_"), Type: "deployment_run", DeploymentID: d.rec.ID, Agent: d.rec.Agent,
		TriggerContext: trigger, CreatedAt: now.UTC().Format(fileTimeLayout), created: now}
	sess, err := st.startSession(d)
	if err != nil {
		run.Error = runError(err)
		return run
	}
	run.SessionID = &sess.ID
	return run
}

// startSession creates a session from d as POST /v1/sessions would,
// with d's system.message allowed and deployment_id set.
func (st *deploymentStore) startSession(d *storedDeployment) (sessionWire, error) {
	if st.agentArchived(d.rec.Agent.ID) {
		return sessionWire{}, &apiError{status: http.StatusBadRequest, errType: "agent_archived_error", msg: "Agent is archived: " + d.rec.Agent.ID}
	}
	env := d.rec.EnvironmentID
	b := sessionCreateBody{Agent: encodeJSON(d.rec.Agent), EnvironmentID: &env, Metadata: map[string]string{},
		VaultIDs: slices.Clone(d.rec.VaultIDs), InitialEvents: d.rec.InitialEvents, deploymentID: d.rec.ID}
	if d.rec.Budget != nil {
		b.Budget = encodeJSON(d.rec.Budget)
	}
	for i, raw := range d.resources {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) == nil && m["authorization_token"] == nil {
			m["authorization_token"] = json.RawMessage(`"-"`) // a public repository
			raw = encodeJSON(m)
		}
		res, err := parseResource(fmt.Sprintf("resources.%d", i), raw, true)
		if err != nil {
			return sessionWire{}, err
		}
		b.resources = append(b.resources, res)
	}
	if err := st.srv.sessions.checkLinks(&b); err != nil {
		return sessionWire{}, err
	}
	return st.srv.sessions.start(&b)
}

// runError is the run error of a failed session creation, typed by what
// failed.
func runError(err error) *runErrorWire {
	var ae *apiError
	msg := err.Error()
	typ := "session_creation_rejected_error"
	if errors.As(err, &ae) {
		for prefix, t := range map[string]string{
			"Environment not found": "environment_not_found_error", "Vault not found": "vault_not_found_error",
			"File not found": "file_not_found_error", "Memory store not found": "memory_store_archived_error",
			"Agent not found": "agent_archived_error", "Agent is archived": "agent_archived_error",
		} {
			if strings.HasPrefix(ae.msg, prefix) {
				typ = t
			}
		}
	}
	if strings.Contains(msg, "self-hosted environments accept only") {
		typ = "self_hosted_resources_unsupported_error"
	}
	return &runErrorWire{Type: typ, Message: msg}
}

// maxFiresPerLook bounds the scheduled runs one look makes, so a clock
// moved far ahead does not make thousands.
const maxFiresPerLook = 10

// fireDue makes the scheduled runs due since the last look: for each
// active, unarchived deployment with a schedule, a run per cron match in
// (lookedAt, now]. Sessions are created with st.mu released.
func (st *deploymentStore) fireDue() {
	now := st.srv.now()
	type fire struct {
		d  storedDeployment
		at time.Time
	}
	fires := locked(&st.mu, func() (fires []fire) {
		for _, d := range st.deployments {
			if d.cron == nil || d.rec.ArchivedAt != nil || d.rec.Status != "active" || !now.After(d.lookedAt) {
				continue
			}
			for t := d.lookedAt.In(d.loc); len(fires) < maxFiresPerLook; {
				if t = d.cron.Next(t); t.IsZero() || t.After(now) {
					break
				}
				fires = append(fires, fire{*d, t})
			}
			d.lookedAt = now
		}
		return fires
	})
	for _, f := range fires {
		at := f.at.UTC().Format(time.RFC3339)
		run := st.run(&f.d, encodeJSON(map[string]string{"type": "schedule", "scheduled_at": at}))
		withLock(&st.mu, func() {
			st.runs = append(st.runs, run)
			d := byID(st.deployments, f.d.rec.ID, deploymentID)
			if d == nil || d.rec.Schedule == nil {
				return
			}
			sched := *d.rec.Schedule // replaced, not written: snapshots share the old one
			sched.LastRunAt = &at
			d.rec.Schedule = &sched
			d.rev++
			if run.Error != nil && slices.Contains(autoPausing, run.Error.Type) && d.rec.ArchivedAt == nil {
				d.rec.Status = "paused"
				d.rec.PausedReason = encodeJSON(map[string]any{"type": "error", "error": map[string]string{"type": run.Error.Type}})
			}
		})
	}
}

// list serves GET /v1/deployments.
func (st *deploymentStore) list(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	q := r.URL.Query()
	archived, ok := archivedQuery(w, r)
	if !ok {
		return
	}
	status := q.Get("status")
	switch {
	case status != "" && status != "active" && status != "paused":
		badRequest(w, r, fmt.Errorf("status: Input should be 'active' or 'paused', got %q", status))
		return
	case status != "" && q.Get("include_archived") != "":
		badRequest(w, r, errors.New("status: cannot be combined with include_archived"))
		return
	}
	bounds, err := parseCreatedRange(q)
	if err != nil || bounds["gt"] != (time.Time{}) || bounds["lt"] != (time.Time{}) {
		if err == nil {
			err = errors.New("created_at: only the [gte] and [lte] bounds are accepted")
		}
		badRequest(w, r, err)
		return
	}
	now := st.srv.now()
	agentID := q.Get("agent_id")
	recs := locked(&st.mu, func() []deploymentWire {
		return newestFirst(st.deployments, func(d *storedDeployment) (deploymentWire, bool) {
			keep := (archived || d.rec.ArchivedAt == nil) && (agentID == "" || d.rec.Agent.ID == agentID) &&
				(status == "" || d.rec.Status == status) && bounds.holds(d.created)
			if !keep {
				return deploymentWire{}, false
			}
			return st.render(d, now), true
		})
	})
	writeCursorListUpTo(w, r, wire.MaxDeploymentListLimit, recs, newestByID(func(d deploymentWire) string { return d.ID }))
}

// getRun serves GET /v1/deployment_runs/{deployment_run_id}.
func (st *deploymentStore) getRun(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	withFound(&st.mu, w, r, func(w http.ResponseWriter, r *http.Request) *deploymentRunWire {
		return pathItem(w, r, st.runs, "deployment_run_id", "Deployment run", func(run *deploymentRunWire) string { return run.ID })
	}, func(run *deploymentRunWire) { writeJSON(w, http.StatusOK, *run) })
}

// listRuns serves GET /v1/deployment_runs.
func (st *deploymentStore) listRuns(w http.ResponseWriter, r *http.Request) {
	st.fireDue()
	q := r.URL.Query()
	deployment, trigger := q.Get("deployment_id"), q.Get("trigger_type")
	if trigger != "" && trigger != "schedule" && trigger != "manual" {
		badRequest(w, r, fmt.Errorf("trigger_type: Input should be 'schedule' or 'manual', got %q", trigger))
		return
	}
	hasError := q.Get("has_error")
	if hasError != "" && hasError != "true" && hasError != "false" {
		badRequest(w, r, errors.New("has_error: Input should be a valid boolean"))
		return
	}
	bounds, err := parseCreatedRange(q)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	recs := locked(&st.mu, func() []deploymentRunWire {
		return newestFirst(st.runs, func(run *deploymentRunWire) (deploymentRunWire, bool) {
			var trig struct {
				Type string `json:"type"`
			}
			_ = json.Unmarshal(run.TriggerContext, &trig)
			keep := (deployment == "" || run.DeploymentID == deployment) && (trigger == "" || trig.Type == trigger) &&
				(hasError == "" || (run.Error != nil) == (hasError == "true")) && bounds.holds(run.created)
			return *run, keep
		})
	})
	writeCursorListUpTo(w, r, wire.MaxDeploymentRunListLimit, recs, newestByID(func(run deploymentRunWire) string { return run.ID }))
}
