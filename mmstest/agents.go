package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Agents endpoints (managed-agents beta; the rule chain refuses a
// request without the beta):
//
//   - POST /v1/agents creates an agent at version 1 ("agent_…" ids). The
//     body is checked strictly (unknown members are a 400) with the
//     service's rules (the lengths in internal/wire/limits.go): a name of
//     1–256 characters, a description of at most 2,048, a model (a bare
//     id or an object with id), at most 256 tools, custom tools named
//     1–128 of [a-zA-Z0-9_-] with a 1–1,024 character description,
//     mcp_toolset config names of 1–128, at most 20 MCP servers with
//     unique names of 1–255 characters and URLs of at most 2,048, each
//     used by an mcp_toolset (and every mcp_toolset naming one), skills
//     with a skill_id of 1–64 characters and a version not empty, roster
//     agent ids of 1–128 characters, metadata of at most 16 pairs (keys
//     1–64, values ≤ 512 characters).
//   - POST /v1/agents/{agent_id} updates: "version" is required (a 400
//     without it) and a version other than the current one is a 409;
//     other omitted members keep their value; description and system
//     clear with null or ""; tools, mcp_servers and skills are replaced
//     whole and clear with null or []; multiagent clears with null;
//     metadata is a patch (null deletes a key). An update that changes
//     something makes a new version; one that changes nothing answers the
//     current version.
//   - A built-in tool config (configs of an agent_toolset_20260401) is
//     sent with its "name" only: a "type" member is a 400, as the request
//     schema defines none. The record carries both, "type" equal to
//     "name".
//   - GET /v1/agents/{agent_id} (?version=n), POST …/archive (sets
//     archived_at, no new version; an archived agent cannot be updated).
//   - GET /v1/agents (newest first; include_archived, created_at[gte],
//     created_at[lte]) and GET /v1/agents/{agent_id}/versions (newest
//     first): cursor scheme, limit 1–100 (default 20), data and next_page.

// agentStore holds a server's agents (Server.agents).
type agentStore struct {
	srv    *Server
	mu     sync.Mutex
	agents []*storedAgent // in creation order
}

// storedAgent is an agent with every version's record, oldest first.
type storedAgent struct {
	versions []agentWire
	created  time.Time
}

func (a *storedAgent) latest() agentWire { return a.versions[len(a.versions)-1] }

// agentWire is the agent record.
type agentWire struct {
	ID          string            `json:"id"`
	Type        string            `json:"type"`
	Name        string            `json:"name"`
	Description *string           `json:"description"`
	System      *string           `json:"system"`
	Model       json.RawMessage   `json:"model"`
	Tools       json.RawMessage   `json:"tools"`
	MCPServers  json.RawMessage   `json:"mcp_servers"`
	Skills      json.RawMessage   `json:"skills"`
	Multiagent  json.RawMessage   `json:"multiagent"`
	Metadata    map[string]string `json:"metadata"`
	Version     int               `json:"version"`

	// ExecutionIdentity is R2's member (agents_multiagent.go).
	ExecutionIdentity json.RawMessage `json:"execution_identity"`
	recordTimes
}

// agentBody is a create or update body as sent: members kept raw, so that
// absent (nil), null and values differ.
type agentBody struct {
	Version     json.RawMessage `json:"version"`
	Name        json.RawMessage `json:"name"`
	Description json.RawMessage `json:"description"`
	System      json.RawMessage `json:"system"`
	Model       json.RawMessage `json:"model"`
	Tools       json.RawMessage `json:"tools"`
	MCPServers  json.RawMessage `json:"mcp_servers"`
	Skills      json.RawMessage `json:"skills"`
	Multiagent  json.RawMessage `json:"multiagent"`
	Metadata    json.RawMessage `json:"metadata"`
	// ExecutionIdentity is R2's member (agents_multiagent.go).
	ExecutionIdentity json.RawMessage `json:"execution_identity"`
	// resolve gives a predefined agent's latest version.
	resolve resolveAgentFunc
}

// agentTool is the part of a tool entry the rules look at.
type agentTool struct {
	Type          string `json:"type"`
	Name          string `json:"name"`
	Description   string `json:"description"`
	MCPServerName string `json:"mcp_server_name"`
	Configs       []struct {
		Name string `json:"name"`
	} `json:"configs"`
}

type agentMCPServer struct {
	Type string `json:"type"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

func isNullJSON(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// clearsList reports whether a list member clears (null or []).
func clearsList(raw json.RawMessage) bool {
	t := string(bytes.TrimSpace(raw))
	return t == "null" || strings.ReplaceAll(t, " ", "") == "[]"
}

func textLen(s string) int { return utf8.RuneCountInString(s) }

// optionalText decodes a nullable string member of at most max characters
// (0: no limit); "" and null clear (nil).
func optionalText(field string, raw json.RawMessage, max int) (*string, error) {
	if isNullJSON(raw) {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%s: Input should be a valid string", field)
	}
	if max > 0 && textLen(s) > max {
		return nil, fmt.Errorf("%s: String should have at most %d characters", field, max)
	}
	if s == "" {
		return nil, nil
	}
	return &s, nil
}

// requiredText reads a string member of 1–max characters.
func requiredText(field string, raw json.RawMessage, max int) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil || s == "" {
		return "", fmt.Errorf("%s: String should have at least 1 character", field)
	}
	if textLen(s) > max {
		return "", fmt.Errorf("%s: String should have at most %d characters", field, max)
	}
	return s, nil
}

// normalModel turns a bare model id or an object into the record's object
// form (effort as {"type": level}).
func normalModel(raw json.RawMessage) (json.RawMessage, error) {
	var id string
	if json.Unmarshal(raw, &id) == nil {
		if id == "" {
			return nil, fmt.Errorf("model: must not be empty")
		}
		return encodeJSON(map[string]string{"id": id}), nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("model: Input should be a string or an object")
	}
	if err := json.Unmarshal(m["id"], &id); err != nil || id == "" {
		return nil, fmt.Errorf("model.id: Field required")
	}
	for k := range m {
		if !slices.Contains([]string{"id", "effort", "speed", "inference_geo"}, k) {
			return nil, fmt.Errorf("model.%s: Extra inputs are not permitted", k)
		}
	}
	var level string
	if e, ok := m["effort"]; ok && json.Unmarshal(e, &level) == nil {
		m["effort"] = encodeJSON(map[string]string{"type": level})
	}
	return encodeJSON(m), nil
}

// checkTools applies the tool and MCP server rules to the lists an agent
// will have.
func checkTools(toolsRaw, serversRaw json.RawMessage) error {
	var tools []agentTool
	var servers []agentMCPServer
	if err := json.Unmarshal(toolsRaw, &tools); err != nil {
		return fmt.Errorf("tools: Input should be a valid list of tools")
	}
	if err := json.Unmarshal(serversRaw, &servers); err != nil {
		return fmt.Errorf("mcp_servers: Input should be a valid list of servers")
	}
	if len(tools) > wire.MaxAgentTools {
		return fmt.Errorf("tools: at most %d tools are allowed, got %d", wire.MaxAgentTools, len(tools))
	}
	if len(servers) > wire.MaxAgentMCPServers {
		return fmt.Errorf("mcp_servers: at most %d MCP servers are allowed, got %d", wire.MaxAgentMCPServers, len(servers))
	}
	names := map[string]bool{}
	for i, s := range servers {
		switch {
		case s.Type != "url":
			return fmt.Errorf("mcp_servers.%d.type: Input should be 'url'", i)
		case s.Name == "" || s.URL == "":
			return fmt.Errorf("mcp_servers.%d: name and url are required", i)
		case textLen(s.Name) > wire.MaxAgentMCPServerName:
			return fmt.Errorf("mcp_servers.%d.name: String should have at most %d characters", i, wire.MaxAgentMCPServerName)
		case textLen(s.URL) > wire.MaxAgentMCPServerURLLen:
			return fmt.Errorf("mcp_servers.%d.url: String should have at most %d characters", i, wire.MaxAgentMCPServerURLLen)
		case names[s.Name]:
			return fmt.Errorf("mcp_servers.%d.name: MCP server names must be unique, %q is repeated", i, s.Name)
		}
		names[s.Name] = true
	}
	used := map[string]bool{}
	for i, t := range tools {
		switch t.Type {
		case "custom":
			if n := textLen(t.Name); n < 1 || n > 128 || strings.Trim(t.Name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
				return fmt.Errorf("tools.%d.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", i)
			}
			if n := textLen(t.Description); n < 1 || n > wire.MaxCustomToolDescLength {
				return fmt.Errorf("tools.%d.description: String should have 1 to %d characters", i, wire.MaxCustomToolDescLength)
			}
		case "mcp_toolset":
			for j, c := range t.Configs {
				if n := textLen(c.Name); n < 1 || n > wire.MaxMCPToolConfigNameLen {
					return fmt.Errorf("tools.%d.configs.%d.name: String should have 1 to %d characters", i, j, wire.MaxMCPToolConfigNameLen)
				}
			}
			if !names[t.MCPServerName] {
				return fmt.Errorf("tools.%d.mcp_server_name: no MCP server named %q", i, t.MCPServerName)
			}
			used[t.MCPServerName] = true
		case "agent_toolset_20260401":
		default:
			return fmt.Errorf("tools.%d.type: unknown tool type %q", i, t.Type)
		}
	}
	for i, s := range servers {
		if !used[s.Name] {
			return fmt.Errorf("mcp_servers.%d: MCP server %q is not referenced by any mcp_toolset", i, s.Name)
		}
	}
	return nil
}

// checkSkills applies the skill rules to a skills list: a skill_id of
// 1–64 characters and, when sent, a version that is not empty.
func checkSkills(field string, raw json.RawMessage) error {
	if raw == nil || isNullJSON(raw) {
		return nil
	}
	var skills []struct {
		SkillID string          `json:"skill_id"`
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(raw, &skills); err != nil {
		return fmt.Errorf("%s: Input should be a valid list of skills", field)
	}
	for i, s := range skills {
		if n := textLen(s.SkillID); n < 1 || n > wire.MaxSkillIDLen {
			return fmt.Errorf("%s.%d.skill_id: String should have 1 to %d characters", field, i, wire.MaxSkillIDLen)
		}
		if string(bytes.TrimSpace(s.Version)) == `""` {
			return fmt.Errorf("%s.%d.version: String should have at least 1 character", field, i)
		}
	}
	return nil
}

// checkRoster applies the roster rules to a multiagent member: each agent
// id (a bare string or an agent entry's id) of 1–128 characters.
func checkRoster(raw json.RawMessage) error {
	if raw == nil || isNullJSON(raw) || multiagentType(raw) == multiagent20261001 {
		return nil // recordMultiagent checks the newer form
	}
	if err := checkCoordinatorMembers(raw); err != nil {
		return err
	}
	var m struct {
		Agents []json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("multiagent: Input should be an object")
	}
	for i, e := range m.Agents {
		field := fmt.Sprintf("multiagent.agents.%d", i)
		var entry struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		if json.Unmarshal(e, &entry.ID) != nil {
			if json.Unmarshal(e, &entry) != nil || entry.Type != "agent" {
				continue
			}
			field += ".id"
		}
		if n := textLen(entry.ID); n < 1 || n > wire.MaxAgentIDLen {
			return fmt.Errorf("%s: String should have 1 to %d characters", field, wire.MaxAgentIDLen)
		}
	}
	return nil
}

// recordTools checks the built-in tool configs of a tools list as sent (a
// config names its tool in "name" only) and returns the list as the record
// holds it: each such config with "type" equal to its "name".
func recordTools(raw json.RawMessage) (json.RawMessage, error) {
	var tools []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &tools); err != nil {
		return raw, nil // checkTools reports it
	}
	changed := false
	for i, tool := range tools {
		var typ string
		if json.Unmarshal(tool["type"], &typ) != nil || typ != "agent_toolset_20260401" || tool["configs"] == nil || isNullJSON(tool["configs"]) {
			continue
		}
		var configs []map[string]json.RawMessage
		if err := json.Unmarshal(tool["configs"], &configs); err != nil {
			return nil, fmt.Errorf("tools.%d.configs: Input should be a valid list", i)
		}
		for j, c := range configs {
			if _, ok := c["type"]; ok {
				return nil, fmt.Errorf("tools.%d.configs.%d.type: Extra inputs are not permitted", i, j)
			}
			if c["name"] == nil {
				return nil, fmt.Errorf("tools.%d.configs.%d.name: Field required", i, j)
			}
			c["type"] = c["name"]
		}
		tool["configs"] = encodeJSON(configs)
		changed = true
	}
	if !changed {
		return raw, nil
	}
	return encodeJSON(tools), nil
}

// apply applies body to rec (a copy of the current version, or a new
// record on create) and checks the result.
func (b *agentBody) apply(rec *agentWire, create bool) error {
	if create && (b.Name == nil || b.Model == nil) {
		return fmt.Errorf("name and model: Field required")
	}
	var err error
	if b.Name != nil {
		if isNullJSON(b.Name) {
			return fmt.Errorf("name: cannot be cleared")
		}
		if rec.Name, err = requiredText("name", b.Name, wire.MaxAgentNameLen); err != nil {
			return err
		}
	}
	if b.Description != nil {
		if rec.Description, err = optionalText("description", b.Description, wire.MaxAgentDescriptionLen); err != nil {
			return err
		}
	}
	if err := checkSkills("skills", b.Skills); err != nil {
		return err
	}
	if err := checkRoster(b.Multiagent); err != nil {
		return err
	}
	if b.System != nil {
		if rec.System, err = optionalText("system", b.System, wire.MaxAgentSystemLen); err != nil {
			return err
		}
	}
	if b.Model != nil {
		if isNullJSON(b.Model) {
			return fmt.Errorf("model: cannot be cleared")
		}
		if rec.Model, err = normalModel(b.Model); err != nil {
			return err
		}
	}
	tools := b.Tools
	if tools != nil && !clearsList(tools) {
		if tools, err = recordTools(tools); err != nil {
			return err
		}
	}
	for _, l := range []struct {
		raw json.RawMessage
		dst *json.RawMessage
	}{{tools, &rec.Tools}, {b.MCPServers, &rec.MCPServers}, {b.Skills, &rec.Skills}} {
		switch {
		case l.raw == nil:
		case clearsList(l.raw):
			*l.dst = json.RawMessage("[]")
		default:
			*l.dst = l.raw
		}
	}
	if b.Multiagent != nil {
		rec.Multiagent = b.Multiagent
		if multiagentType(b.Multiagent) == multiagent20261001 {
			if rec.Multiagent, err = recordMultiagent(b.Multiagent, b.resolve); err != nil {
				return err
			}
		}
	}
	if b.ExecutionIdentity != nil || create {
		if rec.ExecutionIdentity, err = recordExecutionIdentity(b.ExecutionIdentity); err != nil {
			return err
		}
	}
	if b.Metadata != nil {
		var err error
		if rec.Metadata, err = patchMetadata(rec.Metadata, b.Metadata, create, false); err != nil {
			return err
		}
	}
	if err := checkTools(rec.Tools, rec.MCPServers); err != nil {
		return err
	}
	return nil
}

// create serves POST /v1/agents.
func (st *agentStore) create(w http.ResponseWriter, r *http.Request) {
	var b agentBody
	if badBody(w, r, &b) {
		return
	}
	if b.Version != nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "version: Extra inputs are not permitted")
		return
	}
	now := st.srv.now()
	ts := now.UTC().Format(fileTimeLayout)
	rec := agentWire{Type: "agent", Tools: json.RawMessage("[]"), MCPServers: json.RawMessage("[]"), Skills: json.RawMessage("[]"),
		Multiagent: json.RawMessage("null"), Metadata: map[string]string{}, Version: 1, recordTimes: createdAt(ts)}
	b.resolve = st.latestVersionLocked
	if badIf(w, r, b.apply(&rec, true)) {
		return
	}
	rec.ID = st.srv.newID("agent_")
	st.mu.Lock()
	defer st.mu.Unlock()
	st.agents = append(st.agents, &storedAgent{versions: []agentWire{rec}, created: now})
	writeJSON(w, http.StatusOK, rec)
}

// lookup returns the agent named by the path, or answers 404 and returns
// nil. st.mu must be held.
func (st *agentStore) lookup(w http.ResponseWriter, r *http.Request) *storedAgent {
	return pathItem(w, r, st.agents, "agent_id", "Agent", func(a *storedAgent) string { return a.latest().ID })
}

// get serves GET /v1/agents/{agent_id}, the latest or ?version=n.
func (st *agentStore) get(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(a *storedAgent) {
		rec := a.latest()
		if v := r.URL.Query().Get("version"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "version: Input should be an integer of at least 1")
				return
			}
			if n > len(a.versions) {
				writeError(w, r, http.StatusNotFound, wire.ErrNotFound, fmt.Sprintf("Agent %s has no version %d", rec.ID, n))
				return
			}
			rec = a.versions[n-1]
		}
		writeJSON(w, http.StatusOK, rec)
	})
}

// update serves POST /v1/agents/{agent_id}.
func (st *agentStore) update(w http.ResponseWriter, r *http.Request) {
	var b agentBody
	if badBody(w, r, &b) {
		return
	}
	if b.Version == nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "version: Field required")
		return
	}
	var v int
	if err := json.Unmarshal(b.Version, &v); err != nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "version: Input should be a valid integer")
		return
	}
	b.resolve = st.latestVersion // st.mu is held in the closure
	withFound(&st.mu, w, r, st.lookup, func(a *storedAgent) {
		cur := a.latest()
		// The body's rules first (a 400 whatever the version), then the
		// version precondition (409), as the service checks them.
		next := cur
		if badIf(w, r, b.apply(&next, false)) {
			return
		}
		if v != cur.Version {
			writeError(w, r, http.StatusConflict, wire.ErrInvalidRequest,
				fmt.Sprintf("version: the agent is at version %d, not %d; fetch it and retry", cur.Version, v))
			return
		}
		if cur.ArchivedAt != nil {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "Archived agents cannot be updated: "+cur.ID)
			return
		}
		if bytes.Equal(encodeJSON(next), encodeJSON(cur)) {
			writeJSON(w, http.StatusOK, cur)
			return
		}
		next.Version = cur.Version + 1
		next.UpdatedAt = st.srv.now().UTC().Format(fileTimeLayout)
		a.versions = append(a.versions, next)
		writeJSON(w, http.StatusOK, next)
	})
}

// archive serves POST /v1/agents/{agent_id}/archive.
func (st *agentStore) archive(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(a *storedAgent) {
		a.versions[len(a.versions)-1].archive(st.srv.now())
		writeJSON(w, http.StatusOK, a.latest())
	})
}

// list serves GET /v1/agents, newest first.
func (st *agentStore) list(w http.ResponseWriter, r *http.Request) {
	bounds, err := createdBounds(r.URL.Query())
	if err != nil {
		badRequest(w, r, err)
		return
	}
	listArchivable(w, r, &st.mu, &st.agents, func(a *storedAgent) (agentWire, *string) { return a.latest(), a.latest().ArchivedAt },
		func(a *storedAgent) bool { return inBounds(a.created, bounds) }, func(a agentWire) string { return a.ID })
}

// listVersions serves GET /v1/agents/{agent_id}/versions, newest first.
func (st *agentStore) listVersions(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(a *storedAgent) {
		writeCursorList(w, r, a.versions, listOrder[agentWire]{
			key: func(v agentWire) position { return position{seqKey(v.Version)} }, desc: true})
	})
}
