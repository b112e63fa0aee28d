package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Vaults endpoints (managed-agents beta; the rule chain refuses a
// request without it). Vaults hold credentials (vaults_credentials.go).
//
//   - POST /v1/vaults creates a vault ("vlt_…" ids): display_name 1–255
//     characters (required), metadata of at most 16 pairs (keys 1–64,
//     values ≤ 512 characters). Bodies are checked strictly: an unknown
//     member is a 400.
//   - POST /v1/vaults/{vault_id} updates: display_name set (1–255), or
//     null, which the spec allows without saying what it does to a name
//     the record never holds as null: this fake keeps the name. metadata
//     is a patch (null deletes a key). An archived vault cannot be
//     updated (400).
//   - GET /v1/vaults/{vault_id}; POST …/archive sets archived_at and
//     archives the vault's credentials with it (their secrets purged);
//     DELETE removes the vault and its credentials for good and answers
//     {id, type: "vault_deleted"}.
//   - GET /v1/vaults: newest first, include_archived, cursor scheme, limit
//     1–100 (default 20).

// vaultStore holds a server's vaults and their credentials (Server.vaults).
type vaultStore struct {
	srv    *Server
	mu     sync.Mutex
	vaults []*vaultWire        // in creation order
	creds  []*storedCredential // in creation order, every vault's
}

// vaultWire is the vault record.
type vaultWire struct {
	ID          string            `json:"id"`
	Type        string            `json:"type"`
	DisplayName string            `json:"display_name"`
	Metadata    map[string]string `json:"metadata"`
	recordTimes
}

// deletedWire answers a delete.
type deletedWire struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// vaultBody is a vault create or update body, members kept raw so that
// absent (nil), null and values differ.
type vaultBody struct {
	DisplayName json.RawMessage `json:"display_name"`
	Metadata    json.RawMessage `json:"metadata"`
}

// usable reports whether id names a vault that exists and is not
// archived: what a session naming it in vault_ids needs.
func (st *vaultStore) usable(id string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	v := st.vault(id)
	return v != nil && v.ArchivedAt == nil
}

// vault returns the vault id names, or nil; st.mu is held.
func (st *vaultStore) vault(id string) *vaultWire {
	return byID(st.vaults, id, func(v *vaultWire) string { return v.ID })
}

// displayName decodes a display_name member: a string of 1–255
// characters, or null (nil) when nullOK.
func displayName(raw json.RawMessage, nullOK bool) (*string, error) {
	if isNullJSON(raw) {
		if !nullOK {
			return nil, fmt.Errorf("display_name: cannot be null")
		}
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("display_name: Input should be a valid string")
	}
	if n := textLen(s); n < 1 || n > wire.MaxDisplayNameLen {
		return nil, fmt.Errorf("display_name: String should have 1 to %d characters, got %d", wire.MaxDisplayNameLen, n)
	}
	return &s, nil
}

// badRequest answers a 400 invalid_request_error.
func badRequest(w http.ResponseWriter, r *http.Request, err error) {
	writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
}

// badIf answers 400 invalid_request_error with err's message unless err is
// nil, reporting which.
func badIf(w http.ResponseWriter, r *http.Request, err error) bool {
	if err != nil {
		badRequest(w, r, err)
	}
	return err != nil
}

// createVault serves POST /v1/vaults.
func (st *vaultStore) createVault(w http.ResponseWriter, r *http.Request) {
	var b vaultBody
	if badBody(w, r, &b) {
		return
	}
	if b.DisplayName == nil {
		badRequest(w, r, fmt.Errorf("display_name: Field required"))
		return
	}
	name, err := displayName(b.DisplayName, false)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	meta, err := patchMetadata(nil, b.Metadata, true, false)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	ts := st.srv.now().UTC().Format(fileTimeLayout)
	v := &vaultWire{ID: st.srv.newID("vlt_"), Type: "vault", DisplayName: *name, Metadata: meta, recordTimes: createdAt(ts)}
	writeJSON(w, http.StatusOK, appendLocked(&st.mu, &st.vaults, v, func(v *vaultWire) vaultWire { return *v }))
}

// lookupVault returns the vault named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *vaultStore) lookupVault(w http.ResponseWriter, r *http.Request) *vaultWire {
	return pathItem(w, r, st.vaults, "vault_id", "Vault", func(v *vaultWire) string { return v.ID })
}

// getVault serves GET /v1/vaults/{vault_id}.
func (st *vaultStore) getVault(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupVault, func(v *vaultWire) {
		writeJSON(w, http.StatusOK, *v)
	})
}

// updateVault serves POST /v1/vaults/{vault_id}.
func (st *vaultStore) updateVault(w http.ResponseWriter, r *http.Request) {
	var b vaultBody
	if badBody(w, r, &b) {
		return
	}
	withFound(&st.mu, w, r, st.lookupVault, func(v *vaultWire) {
		if v.ArchivedAt != nil {
			badRequest(w, r, fmt.Errorf("archived vaults cannot be updated: %s", v.ID))
			return
		}
		next := *v
		if b.DisplayName != nil {
			name, err := displayName(b.DisplayName, true)
			if err != nil {
				badRequest(w, r, err)
				return
			}
			if name != nil {
				next.DisplayName = *name
			}
		}
		var err error
		if next.Metadata, err = patchMetadata(v.Metadata, nullAsAbsent(b.Metadata), false, false); err != nil {
			badRequest(w, r, err)
			return
		}
		if !bytes.Equal(encodeJSON(next), encodeJSON(*v)) {
			next.UpdatedAt = st.srv.now().UTC().Format(fileTimeLayout)
		}
		*v = next
		writeJSON(w, http.StatusOK, next)
	})
}

// archiveVault serves POST /v1/vaults/{vault_id}/archive: the vault's
// credentials are archived with it.
func (st *vaultStore) archiveVault(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupVault, func(v *vaultWire) {
		if v.ArchivedAt == nil {
			now := st.srv.now()
			v.archive(now)
			for _, c := range st.creds {
				if c.rec.VaultID == v.ID {
					c.archive(now)
				}
			}
		}
		writeJSON(w, http.StatusOK, *v)
	})
}

// deleteVault serves DELETE /v1/vaults/{vault_id}: the vault and its
// credentials are gone.
func (st *vaultStore) deleteVault(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupVault, func(v *vaultWire) {
		id := v.ID
		st.vaults = slices.DeleteFunc(st.vaults, func(x *vaultWire) bool { return x == v })
		st.creds = slices.DeleteFunc(st.creds, func(c *storedCredential) bool { return c.rec.VaultID == id })
		writeDeleted(w, id, "vault_deleted")
	})
}

// includeArchived reads the include_archived query parameter.
func includeArchived(r *http.Request) (bool, error) {
	v := r.URL.Query().Get("include_archived")
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("include_archived: Input should be a valid boolean")
	}
	return b, nil
}

// archivedQuery reads include_archived, answering a 400 (ok false) when it
// is not a boolean.
func archivedQuery(w http.ResponseWriter, r *http.Request) (archived, ok bool) {
	archived, err := includeArchived(r)
	if err != nil {
		badRequest(w, r, err)
		return false, false
	}
	return archived, true
}

// listVaults serves GET /v1/vaults, newest first.
func (st *vaultStore) listVaults(w http.ResponseWriter, r *http.Request) {
	listArchivable(w, r, &st.mu, &st.vaults, func(v *vaultWire) (vaultWire, *string) { return *v, v.ArchivedAt }, nil,
		func(v vaultWire) string { return v.ID })
}
