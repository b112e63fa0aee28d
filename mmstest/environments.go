package mmstest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Environments endpoints (managed-agents beta):
//
//   - POST /v1/environments creates an environment ("env_…" ids): name
//     required (1–256 characters), description (at most 1,024), config, scope ("organization" or "account";
//     left out of the record when not given) and metadata (at most 16
//     pairs, keys 1–64, values ≤ 512 characters). The body and the config
//     are checked strictly (unknown members are a 400). Without a config
//     the environment is a cloud one with unrestricted networking and no
//     packages.
//   - POST /v1/environments/{environment_id} updates: omitted members keep
//     their value; name null keeps it; description null or "" clears it;
//     config null resets the default config, and a cloud config sent onto
//     a cloud config keeps the sub-fields it leaves out (networking, each
//     package list; a null list empties it; inside limited networking,
//     each member left out keeps its value); scope null removes it;
//     metadata is a patch where null or "" deletes a key. An archived
//     environment cannot be updated.
//   - GET …/{environment_id}, POST …/archive (sets archived_at), DELETE
//     (answers {id, type: "environment_deleted"}; its work queue goes with
//     it, and polls waiting on it end with 404).
//   - GET /v1/environments: newest first, include_archived, cursor scheme,
//     limit 1–1,000 (default 20; the schema's bound, the spec names none).
//
// The work queue of self-hosted environments is in environments_work.go.

// environmentStore holds a server's environments (Server.environments).
type environmentStore struct {
	srv  *Server
	mu   sync.Mutex
	envs []*storedEnv // in creation order
}

// storedEnv is an environment with its work queue.
type storedEnv struct {
	rec     environmentWire
	work    []*workItem    // in enqueue order
	wake    chan struct{}  // closed (and replaced) when work arrives or the environment goes
	polling map[string]int // polls in progress per worker id ("" counts each anonymous poll)
	deleted bool
}

// environmentWire is the environment record.
type environmentWire struct {
	ID          string            `json:"id"`
	Type        string            `json:"type"`
	Name        string            `json:"name"`
	Description *string           `json:"description"`
	Config      envConfig         `json:"config"`
	Metadata    map[string]string `json:"metadata"`
	Scope       string            `json:"scope,omitempty"`
	recordTimes
}

// envConfig is a config in record form; Networking and Packages are set
// for cloud configs only.
type envConfig struct {
	Type       string       `json:"type"`
	Networking *envNetwork  `json:"networking,omitempty"`
	Packages   *envPackages `json:"packages,omitempty"`
}

// envNetwork is a networking value; the limited members are written for
// limited networking only.
type envNetwork struct {
	Type                 string   `json:"type"`
	AllowedHosts         []string `json:"allowed_hosts"`
	AllowMCPServers      bool     `json:"allow_mcp_servers"`
	AllowPackageManagers bool     `json:"allow_package_managers"`
}

func (n envNetwork) MarshalJSON() ([]byte, error) {
	if n.Type != "limited" {
		return json.Marshal(map[string]string{"type": n.Type})
	}
	return json.Marshal(map[string]any{"type": n.Type, "allowed_hosts": n.AllowedHosts,
		"allow_mcp_servers": n.AllowMCPServers, "allow_package_managers": n.AllowPackageManagers})
}

// envPackageManagers are the package lists, in record order.
var envPackageManagers = []string{"apt", "cargo", "gem", "go", "npm", "pip"}

// envPackages maps each manager to its list (never nil in a record).
type envPackages map[string][]string

func (p envPackages) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": "packages"}
	for _, k := range envPackageManagers {
		m[k] = p[k]
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads a record's packages back (tests read records).
func (p *envPackages) UnmarshalJSON(data []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	*p = envPackages{}
	for _, k := range envPackageManagers {
		var l []string
		if err := json.Unmarshal(m[k], &l); m[k] != nil && err != nil {
			return err
		}
		(*p)[k] = l
	}
	return nil
}

func defaultEnvConfig() envConfig {
	pk := envPackages{}
	for _, k := range envPackageManagers {
		pk[k] = []string{}
	}
	return envConfig{Type: "cloud", Networking: &envNetwork{Type: "unrestricted"}, Packages: &pk}
}

// environmentBody is a create or update body as sent.
type environmentBody struct {
	Name        json.RawMessage `json:"name"`
	Description json.RawMessage `json:"description"`
	Config      json.RawMessage `json:"config"`
	Scope       json.RawMessage `json:"scope"`
	Metadata    json.RawMessage `json:"metadata"`
}

// strictObject decodes raw as an object whose members are all in allowed.
func strictObject(field string, raw json.RawMessage, allowed ...string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("%s: Input should be an object", field)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(allowed, k) {
			return nil, fmt.Errorf("%s.%s: Extra inputs are not permitted", field, k)
		}
	}
	return m, nil
}

// stringList decodes a list of non-empty strings.
func stringList(field string, raw json.RawMessage) ([]string, error) {
	var l []string
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("%s: Input should be a valid list of strings", field)
	}
	for i, s := range l {
		if s == "" {
			return nil, fmt.Errorf("%s.%d: String should have at least 1 character", field, i)
		}
	}
	if l == nil {
		l = []string{}
	}
	return l, nil
}

// applyConfig applies a config member onto cur (the current config, or
// the default on create).
func applyConfig(cur envConfig, raw json.RawMessage) (envConfig, error) {
	if isNullJSON(raw) {
		return defaultEnvConfig(), nil
	}
	m, err := strictObject("config", raw, "type", "networking", "packages")
	if err != nil {
		return cur, err
	}
	var typ string
	_ = json.Unmarshal(m["type"], &typ)
	switch typ {
	case "self_hosted":
		if len(m) > 1 {
			return cur, fmt.Errorf("config: a self_hosted config has no member but type")
		}
		return envConfig{Type: "self_hosted"}, nil
	case "cloud":
	default:
		return cur, fmt.Errorf("config.type: Input should be 'cloud' or 'self_hosted'")
	}
	if cur.Type != "cloud" {
		cur = defaultEnvConfig()
	}
	next := envConfig{Type: "cloud", Networking: new(envNetwork), Packages: &envPackages{}}
	*next.Networking = *cur.Networking
	maps.Copy(*next.Packages, *cur.Packages)
	if raw, ok := m["networking"]; ok && !isNullJSON(raw) {
		if err := applyNetworking(next.Networking, raw); err != nil {
			return cur, err
		}
	}
	if raw, ok := m["packages"]; ok && !isNullJSON(raw) {
		pm, err := strictObject("config.packages", raw, append([]string{"type"}, envPackageManagers...)...)
		if err != nil {
			return cur, err
		}
		if t, ok := pm["type"]; ok && string(t) != `"packages"` {
			return cur, fmt.Errorf("config.packages.type: Input should be 'packages'")
		}
		for _, k := range envPackageManagers {
			if raw, ok := pm[k]; ok {
				if (*next.Packages)[k], err = stringList("config.packages."+k, raw); err != nil {
					return cur, err
				}
			}
		}
	}
	return next, nil
}

// applyNetworking applies a networking value onto n.
func applyNetworking(n *envNetwork, raw json.RawMessage) error {
	m, err := strictObject("config.networking", raw, "type", "allowed_hosts", "allow_mcp_servers", "allow_package_managers")
	if err != nil {
		return err
	}
	var typ string
	_ = json.Unmarshal(m["type"], &typ)
	switch typ {
	case "unrestricted":
		if len(m) > 1 {
			return fmt.Errorf("config.networking: unrestricted networking has no member but type")
		}
		*n = envNetwork{Type: typ}
		return nil
	case "limited":
	default:
		return fmt.Errorf("config.networking.type: Input should be 'unrestricted' or 'limited'")
	}
	if n.Type != "limited" {
		*n = envNetwork{Type: "limited", AllowedHosts: []string{}}
	}
	if raw, ok := m["allowed_hosts"]; ok {
		if n.AllowedHosts, err = stringList("config.networking.allowed_hosts", raw); err != nil {
			return err
		}
	}
	for key, dst := range map[string]*bool{"allow_mcp_servers": &n.AllowMCPServers, "allow_package_managers": &n.AllowPackageManagers} {
		if raw, ok := m[key]; ok && !isNullJSON(raw) {
			if err := json.Unmarshal(raw, dst); err != nil {
				return fmt.Errorf("config.networking.%s: Input should be a valid boolean", key)
			}
		}
	}
	return nil
}

// apply applies b to rec and checks the result.
func (b *environmentBody) apply(rec *environmentWire, create bool) error {
	if create && b.Name == nil {
		return fmt.Errorf("name: Field required")
	}
	var err error
	if b.Name != nil && !isNullJSON(b.Name) {
		if rec.Name, err = requiredText("name", b.Name, wire.MaxEnvironmentNameLen); err != nil {
			return err
		}
	}
	if b.Description != nil {
		if rec.Description, err = optionalText("description", b.Description, wire.MaxEnvironmentDescriptionLen); err != nil {
			return err
		}
	}
	if b.Config != nil {
		if rec.Config, err = applyConfig(rec.Config, b.Config); err != nil {
			return err
		}
	}
	if b.Scope != nil {
		rec.Scope = ""
		if !isNullJSON(b.Scope) {
			if err := json.Unmarshal(b.Scope, &rec.Scope); err != nil || rec.Scope != "organization" && rec.Scope != "account" {
				return fmt.Errorf("scope: Input should be 'organization' or 'account'")
			}
		}
	}
	if b.Metadata != nil {
		if rec.Metadata, err = patchMetadata(rec.Metadata, b.Metadata, create, true); err != nil {
			return err
		}
	}
	return checkMetadata(rec.Metadata)
}

// create serves POST /v1/environments.
func (st *environmentStore) create(w http.ResponseWriter, r *http.Request) {
	var b environmentBody
	if badBody(w, r, &b) {
		return
	}
	ts := st.srv.now().UTC().Format(fileTimeLayout)
	rec := environmentWire{Type: "environment", Config: defaultEnvConfig(), Metadata: map[string]string{}, recordTimes: createdAt(ts)}
	if badIf(w, r, b.apply(&rec, true)) {
		return
	}
	rec.ID = st.srv.newID("env_")
	st.mu.Lock()
	defer st.mu.Unlock()
	st.envs = append(st.envs, &storedEnv{rec: rec, wake: make(chan struct{}), polling: map[string]int{}})
	writeJSON(w, http.StatusOK, rec)
}

// find returns the live environment id names; st.mu must be held.
func (st *environmentStore) find(id string) *storedEnv {
	return byID(st.envs, id, func(e *storedEnv) string { return e.rec.ID })
}

// get serves GET /v1/environments/{environment_id}.
func (st *environmentStore) get(w http.ResponseWriter, r *http.Request) {
	st.with(w, r, func(e *storedEnv) { writeJSON(w, http.StatusOK, e.rec) })
}

// update serves POST /v1/environments/{environment_id}.
func (st *environmentStore) update(w http.ResponseWriter, r *http.Request) {
	var b environmentBody
	if badBody(w, r, &b) {
		return
	}
	st.with(w, r, func(e *storedEnv) {
		if e.rec.ArchivedAt != nil {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "Archived environments cannot be updated: "+e.rec.ID)
			return
		}
		next := e.rec
		if badIf(w, r, b.apply(&next, false)) {
			return
		}
		next.UpdatedAt = st.srv.now().UTC().Format(fileTimeLayout)
		e.rec = next
		writeJSON(w, http.StatusOK, next)
	})
}

// archive serves POST /v1/environments/{environment_id}/archive.
func (st *environmentStore) archive(w http.ResponseWriter, r *http.Request) {
	st.with(w, r, func(e *storedEnv) {
		e.rec.archive(st.srv.now())
		writeJSON(w, http.StatusOK, e.rec)
	})
}

// delete serves DELETE /v1/environments/{environment_id}.
func (st *environmentStore) delete(w http.ResponseWriter, r *http.Request) {
	st.with(w, r, func(e *storedEnv) {
		st.envs = slices.DeleteFunc(st.envs, func(x *storedEnv) bool { return x == e })
		e.deleted = true
		e.notify()
		writeDeleted(w, e.rec.ID, "environment_deleted")
	})
}

// list serves GET /v1/environments, newest first.
func (st *environmentStore) list(w http.ResponseWriter, r *http.Request) {
	listArchivableUpTo(w, r, wire.MaxEnvironmentListLimit, &st.mu, &st.envs,
		func(e *storedEnv) (environmentWire, *string) { return e.rec, e.rec.ArchivedAt }, nil,
		func(e environmentWire) string { return e.ID })
}

// sessionTarget reports whether envID names a live (not archived)
// environment and whether it is self-hosted: the sessions endpoints call
// it to check a session's environment_id.
func (st *environmentStore) sessionTarget(envID string) (selfHosted bool, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e := st.find(envID)
	if e == nil || e.rec.ArchivedAt != nil {
		return false, false
	}
	return e.rec.Config.Type == "self_hosted", true
}

// with runs f on the environment the path names, with st.mu held, or
// answers 404.
func (st *environmentStore) with(w http.ResponseWriter, r *http.Request, f func(*storedEnv)) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e := pathItem(w, r, st.envs, "environment_id", "Environment", func(e *storedEnv) string { return e.rec.ID }); e != nil {
		f(e)
	}
}
