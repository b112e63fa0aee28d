package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
)

// rec is a record of the Organization API's fake as the wire shows it.
// Most admin families are plain records; keeping them as JSON objects
// lets one set of handlers (below) serve them, each family declaring its
// fields and rules.
type rec = map[string]any

// coll is one family of records: its id prefix, wire type and path value.
type coll struct {
	prefix, typ, param, what string
	items                    []rec
}

// body reads a strict JSON object: a member outside allowed is a 400, as
// the service refuses members its schema does not define; a member in
// required but absent is a 400 too. Numbers keep their text.
func body(w http.ResponseWriter, r *http.Request, allowed []string, required ...string) (rec, bool) {
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	var b rec
	if err := dec.Decode(&b); err != nil || b == nil {
		bad(w, r, "request body must be a JSON object")
		return nil, false
	}
	for k := range b {
		if !slices.Contains(allowed, k) {
			bad(w, r, k+": Extra inputs are not permitted")
			return nil, false
		}
	}
	for _, k := range required {
		if v, ok := b[k]; !ok || v == nil || v == "" {
			bad(w, r, k+": Field required")
			return nil, false
		}
	}
	return b, true
}

// noBody refuses a body on an operation that takes none.
func noBody(w http.ResponseWriter, r *http.Request) bool {
	var buf bytes.Buffer
	_, _ = buf.ReadFrom(r.Body)
	if t := bytes.TrimSpace(buf.Bytes()); len(t) > 0 && string(t) != "{}" && string(t) != "null" {
		bad(w, r, "this operation takes no body")
		return false
	}
	return true
}

func recID(x rec) string { s, _ := x["id"].(string); return s }

// lookup is the record of items with id, or nil.
func lookup(items []rec, id any) rec {
	if i := slices.IndexFunc(items, func(x rec) bool { return x["id"] == id }); i >= 0 {
		return items[i]
	}
	return nil
}

// find returns the record with the path value's id, answering 404.
func (c *coll) find(w http.ResponseWriter, r *http.Request) rec {
	id := r.PathValue(c.param)
	x := lookup(c.items, id)
	if x == nil {
		writeError(w, r, http.StatusNotFound, "not_found_error", fmt.Sprintf("%s %q not found", c.what, id))
	}
	return x
}

// add stores a new record with a fresh id, type and timestamps.
func (o *orgStore) add(c *coll, x rec, times ...string) rec {
	x["id"] = o.s.newID(c.prefix)
	x["type"] = c.typ
	for _, t := range times {
		if _, ok := x[t]; !ok {
			x[t] = o.stamp()
		}
	}
	c.items = append(c.items, x)
	return x
}

// createRec stores x as a new record of c, created and updated now, and
// answers it, with o.mu held.
func (o *orgStore) createRec(w http.ResponseWriter, c *coll, x rec) {
	withLock(&o.mu, func() { writeJSON(w, http.StatusOK, o.add(c, x, "created_at", "updated_at")) })
}

// copyRec is a shallow copy, so a page written after the lock is released
// does not race with a later update.
func copyRec(x rec) rec {
	y := make(rec, len(x))
	for k, v := range x {
		y[k] = v
	}
	return y
}

// atRec runs f on the record find names, with o.mu held for both: find
// answers the 404 (or another refusal) itself and returns nil.
func (o *orgStore) atRec(w http.ResponseWriter, r *http.Request, find func(http.ResponseWriter, *http.Request) rec, f func(x rec)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if x := find(w, r); x != nil {
		f(x)
	}
}

// gather returns the records pick makes of the record find names, read
// with o.mu held, so that the caller writes its page after the lock is
// released; false when find answered instead (it returns nil then).
func (o *orgStore) gather(w http.ResponseWriter, r *http.Request, find func(http.ResponseWriter, *http.Request) rec, pick func(x rec) []rec) ([]rec, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if x := find(w, r); x != nil {
		return pick(x), true
	}
	return nil, false
}

// childrenOf is a copy of each record of items whose member key is id.
func childrenOf(items []rec, key string, id any) []rec {
	var recs []rec
	for _, x := range items {
		if x[key] == id {
			recs = append(recs, copyRec(x))
		}
	}
	return recs
}

// member is the id of a record named by its member key (a membership's
// user_id, workspace_id, …).
func member(key string) func(rec) string { return func(x rec) string { return str(x, key) } }

// refused answers 400 with msg unless msg is "" (fine), reporting which.
func refused(w http.ResponseWriter, r *http.Request, msg string) bool {
	if msg != "" {
		bad(w, r, msg)
	}
	return msg != ""
}

// reason is refuse's reason to refuse x, or "" when there is none.
func reason(x rec, refuse func(rec) string) string {
	if refuse == nil {
		return ""
	}
	return refuse(x)
}

// getRec serves GET of one record.
func (o *orgStore) getRec(c *coll) http.HandlerFunc { return o.getWith(c.find) }

// getWith serves GET of the record find names (find answers its 404).
func (o *orgStore) getWith(find func(http.ResponseWriter, *http.Request) rec) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		o.atRec(w, r, find, func(x rec) { writeJSON(w, http.StatusOK, x) })
	}
}

// listRecs serves a list of c's records keep keeps (nil: all), archived
// ones only with include_archived=true, newest first, in the id scheme
// (idScheme) or the cursor scheme.
func (o *orgStore) listRecs(c *coll, idScheme bool, keep func(*http.Request, rec) bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		withArchived := r.URL.Query().Get("include_archived") == "true"
		recs := locked(&o.mu, func() []rec {
			var recs []rec
			for _, x := range c.items {
				if (x["archived_at"] == nil || withArchived) && (keep == nil || keep(r, x)) {
					recs = append(recs, copyRec(x))
				}
			}
			return recs
		})
		if idScheme {
			listIDScheme(w, r, recs, recID, c.prefix)
			return
		}
		listCursorScheme(w, r, recs, recID)
	}
}

// updateRec serves POST of a record: the body's allowed members, checked
// by check (a message for a 400), set on the record (null clears where
// the family allows it: check decides).
func (o *orgStore) updateRec(c *coll, allowed []string, checkBody func(cur, b rec) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, ok := body(w, r, allowed)
		if !ok {
			return
		}
		o.atRec(w, r, c.find, func(x rec) {
			if x["archived_at"] != nil {
				bad(w, r, c.what+" is archived")
				return
			}
			if checkBody != nil && refused(w, r, checkBody(x, b)) {
				return
			}
			for k, v := range b {
				x[k] = v
			}
			if _, ok := x["updated_at"]; ok {
				x["updated_at"] = o.stamp()
			}
			writeJSON(w, http.StatusOK, x)
		})
	}
}

// archiveRec serves POST …/archive: idempotent, the first archived_at kept.
func (o *orgStore) archiveRec(c *coll, refuse func(x rec) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !noBody(w, r) {
			return
		}
		o.atRec(w, r, c.find, func(x rec) {
			if refused(w, r, reason(x, refuse)) {
				return
			}
			if x["archived_at"] == nil {
				x["archived_at"] = o.stamp()
			}
			writeJSON(w, http.StatusOK, x)
		})
	}
}

// deleteRec serves DELETE of a record: {id, type: deleted}.
func (o *orgStore) deleteRec(c *coll, deleted string, refuse func(x rec) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		o.atRec(w, r, c.find, func(x rec) {
			if !refused(w, r, reason(x, refuse)) {
				c.remove(x)
				writeDeleted(w, recID(x), deleted)
			}
		})
	}
}

// remove deletes x from c.
func (c *coll) remove(x rec) {
	c.items = slices.DeleteFunc(c.items, func(y rec) bool { return recID(y) == recID(x) })
}

// str is a body member as a string ("" when absent or not a string).
func str(b rec, k string) string { s, _ := b[k].(string); return s }

// inSet reports a body member present and not one of allowed, as the
// message of a 400 ("" when fine).
func inSet(b rec, k string, allowed ...string) string {
	v, ok := b[k]
	if !ok || v == nil {
		return ""
	}
	s, _ := v.(string)
	if !slices.Contains(allowed, s) {
		return fmt.Sprintf("%s: Input should be one of %s", k, strings.Join(allowed, ", "))
	}
	return ""
}

// isSlug reports a slug (lowercase letters, digits, hyphens; not empty).
func isSlug(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
