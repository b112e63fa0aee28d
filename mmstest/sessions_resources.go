package mmstest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The session resources (/v1/sessions/{session_id}/resources):
// github_repository and file resources get "sesrsc_…" ids; a repository's
// authorization_token is stored but never returned, and only a
// repository's token can be rotated (POST …/{resource_id}); only file
// resources can be added after creation (POST …/resources); memory store
// resources carry no id (as the reference's type has none), so they are
// listed but cannot be fetched, rotated or deleted one by one. Lists are
// cursor pages in the order the resources were added.

// storedResource is one resource of a session.
type storedResource struct {
	kind          string // github_repository, file, memory_store
	id            string
	url           string
	token         string // never rendered
	mountPath     string
	checkout      json.RawMessage
	fileID        string
	memoryStoreID string
	access        string
	instructions  *string
	createdAt     string
	updatedAt     string
	place         int // its place in the session's list: resources have no other common key
}

// render is the resource's record, without its token.
func (res *storedResource) render() json.RawMessage {
	switch res.kind {
	case "github_repository":
		checkout := res.checkout
		if checkout == nil {
			checkout = json.RawMessage("null")
		}
		return encodeJSON(struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			URL       string          `json:"url"`
			MountPath string          `json:"mount_path"`
			Checkout  json.RawMessage `json:"checkout"`
			CreatedAt string          `json:"created_at"`
			UpdatedAt string          `json:"updated_at"`
		}{res.kind, res.id, res.url, res.mountPath, checkout, res.createdAt, res.updatedAt})
	case "file":
		return encodeJSON(struct {
			Type      string `json:"type"`
			ID        string `json:"id"`
			FileID    string `json:"file_id"`
			MountPath string `json:"mount_path"`
			CreatedAt string `json:"created_at"`
			UpdatedAt string `json:"updated_at"`
		}{res.kind, res.id, res.fileID, res.mountPath, res.createdAt, res.updatedAt})
	}
	return encodeJSON(struct {
		Type          string  `json:"type"`
		MemoryStoreID string  `json:"memory_store_id"`
		Access        string  `json:"access"`
		Instructions  *string `json:"instructions,omitempty"`
	}{res.kind, res.memoryStoreID, res.access, res.instructions})
}

// parseResource checks one resource of a create body (or, with create
// false, of an add body, which takes files only).
func parseResource(field string, raw json.RawMessage, create bool) (*storedResource, error) {
	var head struct {
		Type string `json:"type"`
	}
	_ = json.Unmarshal(raw, &head)
	if !create && head.Type != "file" {
		return nil, invalid("type: only file resources can be added to a session after it was created, got %q", head.Type)
	}
	switch head.Type {
	case "github_repository":
		var g struct {
			Type               string          `json:"type"`
			URL                string          `json:"url"`
			AuthorizationToken string          `json:"authorization_token"`
			MountPath          *string         `json:"mount_path"`
			Checkout           json.RawMessage `json:"checkout"`
		}
		if err := strictDecode(field, raw, &g); err != nil {
			return nil, err
		}
		switch {
		case g.URL == "":
			return nil, invalid("%s.url: Field required", field)
		case textLen(g.URL) > wire.MaxRepositoryURLLen:
			return nil, invalid("%s.url: String should have at most %d characters", field, wire.MaxRepositoryURLLen)
		case g.AuthorizationToken == "":
			return nil, invalid("%s.authorization_token: Field required", field)
		case textLen(g.AuthorizationToken) > wire.MaxAuthorizationTokenLen:
			return nil, invalid("%s.authorization_token: String should have at most %d characters", field, wire.MaxAuthorizationTokenLen)
		}
		res := &storedResource{kind: head.Type, url: g.URL, token: g.AuthorizationToken,
			mountPath: "/workspace/" + strings.TrimSuffix(path.Base(g.URL), ".git")}
		if g.MountPath != nil && *g.MountPath != "" {
			res.mountPath = *g.MountPath
		}
		if g.Checkout != nil && !isNullJSON(g.Checkout) {
			var c struct {
				Type string `json:"type"`
				Name string `json:"name"`
				SHA  string `json:"sha"`
			}
			if err := strictDecode(field+".checkout", g.Checkout, &c); err != nil {
				return nil, err
			}
			switch {
			case c.Type == "branch" && c.Name != "" && c.SHA == "":
				if textLen(c.Name) > wire.MaxCheckoutBranchLen {
					return nil, invalid("%s.checkout.name: String should have at most %d characters", field, wire.MaxCheckoutBranchLen)
				}
			case c.Type == "commit" && c.SHA != "" && c.Name == "":
				if textLen(c.SHA) < wire.MinCheckoutSHALen {
					return nil, invalid("%s.checkout.sha: String should have at least %d characters", field, wire.MinCheckoutSHALen)
				}
			default:
				return nil, invalid("%s.checkout: Input should be {type:\"branch\", name} or {type:\"commit\", sha}", field)
			}
			res.checkout = g.Checkout
		}
		return res, nil
	case "file":
		var f struct {
			Type      string  `json:"type"`
			FileID    string  `json:"file_id"`
			MountPath *string `json:"mount_path"`
		}
		if err := strictDecode(field, raw, &f); err != nil {
			return nil, err
		}
		if f.FileID == "" {
			return nil, invalid("%s.file_id: Field required", field)
		}
		if textLen(f.FileID) > wire.MaxResourceFileIDLen {
			return nil, invalid("%s.file_id: String should have at most %d characters", field, wire.MaxResourceFileIDLen)
		}
		res := &storedResource{kind: head.Type, fileID: f.FileID, mountPath: "/mnt/session/uploads/" + f.FileID}
		if f.MountPath != nil && *f.MountPath != "" {
			res.mountPath = *f.MountPath
		}
		return res, nil
	case "memory_store":
		var m struct {
			Type          string  `json:"type"`
			MemoryStoreID string  `json:"memory_store_id"`
			Access        *string `json:"access"`
			Instructions  *string `json:"instructions"`
		}
		if err := strictDecode(field, raw, &m); err != nil {
			return nil, err
		}
		res := &storedResource{kind: head.Type, memoryStoreID: m.MemoryStoreID, access: "read_write", instructions: m.Instructions}
		switch {
		case m.MemoryStoreID == "":
			return nil, invalid("%s.memory_store_id: Field required", field)
		case m.Instructions != nil && textLen(*m.Instructions) > wire.MaxResourceInstruction:
			return nil, invalid("%s.instructions: String should have at most %d characters", field, wire.MaxResourceInstruction)
		case m.Access != nil && *m.Access != "read_write" && *m.Access != "read_only":
			return nil, invalid("%s.access: Input should be 'read_write' or 'read_only'", field)
		case m.Access != nil:
			res.access = *m.Access
		}
		return res, nil
	}
	return nil, invalid("%s.type: Input should be 'github_repository', 'file' or 'memory_store', got %q", field, head.Type)
}

// attachResource gives a new resource its id (memory stores have none),
// timestamps and place, and adds it to s; st.mu must be held once s is
// stored.
func (st *sessionStore) attachResource(s *storedSession, res *storedResource, ts string) {
	if res.kind != "memory_store" {
		res.id = st.srv.newID("sesrsc_")
	}
	res.createdAt, res.updatedAt = ts, ts
	s.resourcesAdded++
	res.place = s.resourcesAdded
	s.resources = append(s.resources, res)
}

// lookupResource returns the session and resource named by the path, or
// answers 404 and returns nil. st.mu must be held.
func (st *sessionStore) lookupResource(w http.ResponseWriter, r *http.Request) (*storedSession, *storedResource) {
	s := st.lookup(w, r)
	if s == nil {
		return nil, nil
	}
	id := r.PathValue("resource_id")
	i := slices.IndexFunc(s.resources, func(res *storedResource) bool { return res.id != "" && res.id == id })
	if i < 0 {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "Session resource not found: "+id)
		return nil, nil
	}
	return s, s.resources[i]
}

// addResource serves POST /v1/sessions/{session_id}/resources.
func (st *sessionStore) addResource(w http.ResponseWriter, r *http.Request) {
	var raw json.RawMessage
	if badBody(w, r, &raw) {
		return
	}
	res, err := parseResource("body", raw, false)
	if err == nil {
		err = st.checkFile(res.fileID)
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		st.attachResource(s, res, st.timestamp())
		writeJSON(w, http.StatusOK, res.render())
	})
}

// getResource serves GET /v1/sessions/{session_id}/resources/{resource_id}.
func (st *sessionStore) getResource(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupResource, func(_ *storedSession, res *storedResource) {
		writeJSON(w, http.StatusOK, res.render())
	})
}

// updateResource serves POST /v1/sessions/{session_id}/resources/{resource_id}:
// a repository's token rotation.
func (st *sessionStore) updateResource(w http.ResponseWriter, r *http.Request) {
	var b struct {
		AuthorizationToken *string `json:"authorization_token"`
	}
	if badBody(w, r, &b) {
		return
	}
	if b.AuthorizationToken == nil || *b.AuthorizationToken == "" {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "authorization_token: Field required")
		return
	}
	if textLen(*b.AuthorizationToken) > wire.MaxAuthorizationTokenLen {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest,
			fmt.Sprintf("authorization_token: String should have at most %d characters", wire.MaxAuthorizationTokenLen))
		return
	}
	withFoundIn(&st.mu, w, r, st.lookupResource, func(_ *storedSession, res *storedResource) {
		if res.kind != "github_repository" {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "Only github_repository resources support token rotation, not "+res.kind)
			return
		}
		res.token, res.updatedAt = *b.AuthorizationToken, st.timestamp()
		writeJSON(w, http.StatusOK, res.render())
	})
}

// deleteResource serves DELETE /v1/sessions/{session_id}/resources/{resource_id}.
func (st *sessionStore) deleteResource(w http.ResponseWriter, r *http.Request) {
	withFoundIn(&st.mu, w, r, st.lookupResource, func(s *storedSession, res *storedResource) {
		s.resources = slices.DeleteFunc(s.resources, func(x *storedResource) bool { return x == res })
		writeJSON(w, http.StatusOK, map[string]string{"id": res.id, "type": "session_resource_deleted"})
	})
}

// listResources serves GET /v1/sessions/{session_id}/resources.
func (st *sessionStore) listResources(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(s *storedSession) {
		byPlace := listOrder[*storedResource]{key: func(res *storedResource) position { return position{seqKey(res.place)} }}
		page, err := pageByCursorAs(s.resources, byPlace, r.URL.Query(), maxManagedPageLimit, (*storedResource).render)
		writePage(w, r, page, err)
	})
}

// RepositoryToken returns the authorization token the session's
// repository resource holds (the fake keeps it, the service never
// returns it), for tests of token rotation.
func (s *Server) RepositoryToken(sessionID, resourceID string) (string, bool) {
	st := s.sessions
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, sess := range st.sessions {
		if sess.rec.ID != sessionID {
			continue
		}
		for _, res := range sess.resources {
			if res.id == resourceID && res.kind == "github_repository" {
				return res.token, true
			}
		}
	}
	return "", false
}
