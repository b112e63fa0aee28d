package mmstest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Dreams endpoints (dreaming beta; the rule chain refuses a request
// without it), deployments-dreams-compliance.md §3:
//
//   - POST /v1/dreams starts a dream ("drm_…" ids), checked strictly:
//     inputs, exactly one {type:"memory_store", memory_store_id} (a live
//     store, else 404) and one {type:"sessions", session_ids} (1–100
//     distinct ids of stored sessions, else 404); model, an id string or
//     {id (1–256 characters), speed?: "standard"}; instructions (1–4,096
//     characters, or null); output_behavior {type:"create_new"} (the
//     default) or {type:"update_existing", memory_store_id} naming the
//     input store (a 409 while another update_existing dream on it is not
//     final). The answer is pending, outputs [] and usage zero.
//   - A dream moves on the server's clock (WithDreamTimes): pending, then
//     running (a session id "sesn_…" of the fake's own — not a stored
//     session — and its output recorded: for create_new a new memory
//     store named after the input, without its memories; for
//     update_existing the input store; usage grows), then completed
//     (ended_at set, usage fixed). Server.FailDream fails one.
//   - GET /v1/dreams/{dream_id} (archived ones too); GET /v1/dreams:
//     newest first, include_archived, statuses[], created_at[gt|lt],
//     cursor pages of at most 100.
//   - POST …/cancel: pending or running → canceled (ended_at set);
//     canceled → unchanged; completed or failed → 400. POST …/archive:
//     only a final dream (else 400), again unchanged.

// dreamStore holds a server's dreams (Server.dreams).
type dreamStore struct {
	srv    *Server
	mu     sync.Mutex
	dreams []*storedDream // in creation order
}

// storedDream is a dream with its times on the server's clock.
type storedDream struct {
	rec        dreamWire
	created    time.Time
	storeID    string // the input store
	update     bool   // update_existing
	sessions   int
	outputMade bool
}

// dreamWire is the dream record.
type dreamWire struct {
	ID             string            `json:"id"`
	Type           string            `json:"type"`
	Status         string            `json:"status"`
	Inputs         []json.RawMessage `json:"inputs"`
	Model          dreamModelWire    `json:"model"`
	Instructions   *string           `json:"instructions"`
	OutputBehavior json.RawMessage   `json:"output_behavior"`
	Outputs        []json.RawMessage `json:"outputs"`
	SessionID      *string           `json:"session_id"`
	Usage          dreamUsageWire    `json:"usage"`
	Error          *dreamErrorWire   `json:"error"`
	CreatedAt      string            `json:"created_at"`
	EndedAt        *string           `json:"ended_at"`
	ArchivedAt     *string           `json:"archived_at"`
}

type dreamModelWire struct {
	ID    string `json:"id"`
	Speed string `json:"speed"`
}

type dreamUsageWire struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
}

type dreamErrorWire struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// create serves POST /v1/dreams.
func (st *dreamStore) create(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Inputs         []json.RawMessage `json:"inputs"`
		Model          json.RawMessage   `json:"model"`
		Instructions   json.RawMessage   `json:"instructions"`
		OutputBehavior json.RawMessage   `json:"output_behavior"`
	}
	if badBody(w, r, &b) {
		return
	}
	d, err := st.check(b.Inputs, b.Model, b.Instructions, b.OutputBehavior)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	now := st.srv.now()
	d.created = now
	d.rec.Type, d.rec.Status, d.rec.Outputs = "dream", "pending", []json.RawMessage{}
	d.rec.CreatedAt = now.UTC().Format(fileTimeLayout)
	var conflict bool
	out := locked(&st.mu, func() dreamWire {
		if d.update && slices.ContainsFunc(st.dreams, func(o *storedDream) bool {
			return o.update && o.storeID == d.storeID && !final(st.advance(o, now).Status)
		}) {
			conflict = true
			return dreamWire{}
		}
		d.rec.ID = st.srv.newID("drm_")
		st.dreams = append(st.dreams, d)
		return d.rec
	})
	if conflict {
		writeError(w, r, http.StatusConflict, wire.ErrInvalidRequest,
			"another update_existing dream on memory store "+d.storeID+" has not stopped yet")
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// check checks a create body's members and returns the dream they ask
// for, its record's request members filled.
func (st *dreamStore) check(inputs []json.RawMessage, model, instructions, behavior json.RawMessage) (*storedDream, error) {
	d := &storedDream{}
	var haveStore, haveSessions bool
	if inputs == nil {
		return nil, invalid("inputs: Field required")
	}
	for i, raw := range inputs {
		path := fmt.Sprintf("inputs.%d", i)
		var in struct {
			Type          string   `json:"type"`
			MemoryStoreID *string  `json:"memory_store_id"`
			SessionIDs    []string `json:"session_ids"`
		}
		if err := strictDecode(path, raw, &in); err != nil {
			return nil, err
		}
		switch {
		case in.Type == "memory_store" && in.SessionIDs == nil && !haveStore:
			if in.MemoryStoreID == nil || *in.MemoryStoreID == "" {
				return nil, invalid("%s.memory_store_id: Field required", path)
			}
			if !st.srv.memoryStores.usable(*in.MemoryStoreID) {
				return nil, &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Memory store not found: " + *in.MemoryStoreID}
			}
			haveStore, d.storeID = true, *in.MemoryStoreID
			d.rec.Inputs = append(d.rec.Inputs, raw)
		case in.Type == "sessions" && in.MemoryStoreID == nil && !haveSessions:
			ids, err := st.checkSessions(path+".session_ids", in.SessionIDs)
			if err != nil {
				return nil, err
			}
			haveSessions, d.sessions = true, len(ids)
			d.rec.Inputs = append(d.rec.Inputs, encodeJSON(map[string]any{"type": "sessions", "session_ids": ids}))
		case in.Type == "memory_store" || in.Type == "sessions":
			return nil, invalid("%s: inputs must be exactly one memory_store and one sessions input", path)
		default:
			return nil, invalid("%s.type: Input should be 'memory_store' or 'sessions', got %q", path, in.Type)
		}
	}
	if !haveStore || !haveSessions {
		return nil, invalid("inputs: exactly one memory_store and one sessions input are required")
	}
	if model == nil || isNullJSON(model) {
		return nil, invalid("model: Field required")
	}
	var m struct {
		ID    string  `json:"id"`
		Speed *string `json:"speed"`
	}
	if json.Unmarshal(model, &m.ID) != nil {
		if err := strictDecode("model", model, &m); err != nil {
			return nil, err
		}
		if m.Speed != nil && *m.Speed != "standard" {
			return nil, invalid("model.speed: dreams accept only 'standard', got %q", *m.Speed)
		}
	}
	if n := textLen(m.ID); n < 1 || n > wire.MaxDreamModelIDLen {
		return nil, invalid("model.id: String should have 1 to %d characters, got %d", wire.MaxDreamModelIDLen, n)
	}
	d.rec.Model = dreamModelWire{ID: m.ID, Speed: "standard"}
	if instructions != nil {
		text, err := stringMember("instructions", instructions, true)
		if err != nil {
			return nil, invalid("%v", err)
		}
		if text != nil {
			if n := textLen(*text); n < 1 || n > wire.MaxDreamInstructionsLen {
				return nil, invalid("instructions: String should have 1 to %d characters, got %d", wire.MaxDreamInstructionsLen, n)
			}
		}
		d.rec.Instructions = text
	}
	d.rec.OutputBehavior = json.RawMessage(`{"type":"create_new"}`)
	if behavior != nil && !isNullJSON(behavior) {
		var ob struct {
			Type          string  `json:"type"`
			MemoryStoreID *string `json:"memory_store_id"`
		}
		if err := strictDecode("output_behavior", behavior, &ob); err != nil {
			return nil, err
		}
		switch {
		case ob.Type == "create_new" && ob.MemoryStoreID == nil:
		case ob.Type == "update_existing" && ob.MemoryStoreID != nil:
			if *ob.MemoryStoreID != d.storeID {
				return nil, invalid("output_behavior.memory_store_id: must be the input memory store %s", d.storeID)
			}
			d.update = true
		default:
			return nil, invalid("output_behavior: Input should be {type:\"create_new\"} or {type:\"update_existing\", memory_store_id}")
		}
		d.rec.OutputBehavior = behavior
	}
	return d, nil
}

// checkSessions checks a sessions input's ids and returns them sorted.
func (st *dreamStore) checkSessions(path string, ids []string) ([]string, error) {
	switch n := len(ids); {
	case n == 0:
		return nil, invalid("%s: List should have at least 1 item", path)
	case n > wire.MaxDreamSessionIDs:
		return nil, invalid("%s: at most %d session ids are allowed, got %d", path, wire.MaxDreamSessionIDs, n)
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return nil, invalid("%s: session ids must be unique, %q repeats", path, sorted[i])
		}
	}
	ss := st.srv.sessions
	for _, id := range sorted {
		if !locked(&ss.mu, func() bool { return byID(ss.sessions, id, func(s *storedSession) string { return s.rec.ID }) != nil }) {
			return nil, &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "Session not found: " + id}
		}
	}
	return sorted, nil
}

// final reports a final status.
func final(status string) bool {
	return status == "completed" || status == "failed" || status == "canceled"
}

// advance moves d along the server's clock to now and returns its record;
// st.mu is held.
func (st *dreamStore) advance(d *storedDream, now time.Time) dreamWire {
	if final(d.rec.Status) {
		return d.rec
	}
	startAt := d.created.Add(st.srv.cfg.dreamPending)
	endAt := startAt.Add(st.srv.cfg.dreamRunning)
	if now.Before(startAt) {
		return d.rec
	}
	if d.rec.SessionID == nil {
		id := st.srv.newID("sesn_")
		d.rec.SessionID = &id
	}
	if !d.outputMade {
		d.outputMade = true
		out := d.storeID
		if !d.update {
			out = st.copyStore(d.storeID, now)
		}
		d.rec.Outputs = []json.RawMessage{encodeJSON(map[string]string{"type": "memory_store", "memory_store_id": out})}
	}
	// Usage grows with the running time, per session read.
	upTo := now
	if upTo.After(endAt) {
		upTo = endAt
	}
	elapsed, span := upTo.Sub(startAt), max(endAt.Sub(startAt), time.Millisecond)
	full := 1000 * d.sessions
	d.rec.Usage = dreamUsageWire{InputTokens: int(int64(full) * int64(elapsed) / int64(span)),
		OutputTokens: int(int64(full/4) * int64(elapsed) / int64(span))}
	if now.Before(endAt) {
		d.rec.Status = "running"
		return d.rec
	}
	ts := endAt.UTC().Format(fileTimeLayout)
	d.rec.Status, d.rec.EndedAt = "completed", &ts
	return d.rec
}

// copyStore makes the output store of a create_new dream: a new store
// named after the input (its memories are not copied) and returns its id.
func (st *dreamStore) copyStore(inputID string, now time.Time) string {
	ms := st.srv.memoryStores
	id := st.srv.newID("memstore_")
	withLock(&ms.mu, func() {
		in := ms.store(inputID)
		name, desc, meta := "dream output", "", map[string]string{}
		if in != nil {
			name, desc, meta = in.Name+" (dream)", in.Description, maps.Clone(in.Metadata)
		}
		ms.stores = append(ms.stores, &memoryStoreWire{ID: id, Type: "memory_store", Name: name, Description: desc,
			Metadata: meta, recordTimes: createdAt(now.UTC().Format(fileTimeLayout))})
	})
	return id
}

// lookup returns the dream the path names, moved to now, or answers 404;
// st.mu is held.
func (st *dreamStore) lookup(w http.ResponseWriter, r *http.Request) *storedDream {
	d := pathItem(w, r, st.dreams, "dream_id", "Dream", func(d *storedDream) string { return d.rec.ID })
	if d != nil {
		st.advance(d, st.srv.now())
	}
	return d
}

// get serves GET /v1/dreams/{dream_id}.
func (st *dreamStore) get(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(d *storedDream) { writeJSON(w, http.StatusOK, d.rec) })
}

// cancel serves POST /v1/dreams/{dream_id}/cancel.
func (st *dreamStore) cancel(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(d *storedDream) {
		switch d.rec.Status {
		case "completed", "failed":
			badRequest(w, r, fmt.Errorf("dream %s is %s and cannot be canceled", d.rec.ID, d.rec.Status))
			return
		case "pending", "running":
			ts := st.srv.now().UTC().Format(fileTimeLayout)
			d.rec.Status, d.rec.EndedAt = "canceled", &ts
		}
		writeJSON(w, http.StatusOK, d.rec)
	})
}

// archive serves POST /v1/dreams/{dream_id}/archive.
func (st *dreamStore) archive(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookup, func(d *storedDream) {
		if !final(d.rec.Status) {
			badRequest(w, r, fmt.Errorf("dream %s is %s: cancel it before archiving", d.rec.ID, d.rec.Status))
			return
		}
		if d.rec.ArchivedAt == nil {
			ts := st.srv.now().UTC().Format(fileTimeLayout)
			d.rec.ArchivedAt = &ts
		}
		writeJSON(w, http.StatusOK, d.rec)
	})
}

// list serves GET /v1/dreams.
func (st *dreamStore) list(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	archived, ok := archivedQuery(w, r)
	if !ok {
		return
	}
	statuses := q["statuses[]"]
	for _, s := range statuses {
		if !slices.Contains([]string{"pending", "running", "completed", "failed", "canceled"}, s) {
			badRequest(w, r, fmt.Errorf("statuses: Input should be 'pending', 'running', 'completed', 'failed' or 'canceled', got %q", s))
			return
		}
	}
	bounds, err := parseCreatedRange(q)
	if err == nil && (bounds["gte"] != (time.Time{}) || bounds["lte"] != (time.Time{})) {
		err = errors.New("created_at: only the [gt] and [lt] bounds are accepted")
	}
	if err != nil {
		badRequest(w, r, err)
		return
	}
	now := st.srv.now()
	recs := locked(&st.mu, func() []dreamWire {
		return newestFirst(st.dreams, func(d *storedDream) (dreamWire, bool) {
			rec := st.advance(d, now)
			keep := (archived || rec.ArchivedAt == nil) && (len(statuses) == 0 || slices.Contains(statuses, rec.Status)) &&
				bounds.holds(d.created)
			return rec, keep
		})
	})
	writeCursorListUpTo(w, r, wire.MaxDreamListLimit, recs, newestByID(func(d dreamWire) string { return d.ID }))
}

// FailDream makes a dream that is not final fail with an error of errType
// and message (as the service's "timeout" or "internal_error"): it moves
// to failed now, its output store keeping what was written. It reports
// whether the dream was found and not final.
func (s *Server) FailDream(dreamID, errType, message string) bool {
	st := s.dreams
	st.mu.Lock()
	defer st.mu.Unlock()
	d := byID(st.dreams, dreamID, func(d *storedDream) string { return d.rec.ID })
	now := s.now()
	if d == nil || final(st.advance(d, now).Status) {
		return false
	}
	ts := now.UTC().Format(fileTimeLayout)
	d.rec.Status, d.rec.EndedAt, d.rec.Error = "failed", &ts, &dreamErrorWire{Type: errType, Message: message}
	return true
}
