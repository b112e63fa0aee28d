package mmstest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The work queue of a self-hosted environment
// (/v1/environments/{environment_id}/work…):
//
//   - Work items are queued by the sessions of the environment (a
//     {type: "session", id} item per session) and by
//     Server.EnqueueHealthcheck ({type: "healthcheck", id}).
//   - GET …/work/poll takes the oldest queued item: it becomes "starting"
//     (started_at set) with a lease of 300 seconds, and the answer is the
//     item. An item taken before whose lease ran out, or, with
//     reclaim_older_than_ms, whose last sign of life (poll or heartbeat)
//     is at least that old, is taken again when nothing is queued. With
//     nothing to take the poll waits up to block_ms (default 0) on the
//     server's clock: it wakes when work is queued, when the clock moves
//     (a ManualClock's Advance; with another clock a real timer), and ends
//     when the request ends. Nothing to take at the end: 204, no body.
//     The Vendor-Worker-ID header names the worker; polls of a cloud
//     environment are a 400.
//   - POST …/work/{work_id}/ack makes a starting item "active"
//     (acknowledged_at set; the lease renewed).
//   - POST …/heartbeat {desired_ttl_seconds?, expected_last_heartbeat?}
//     extends the lease of a starting or active item by the ttl (default
//     300 s) unless expected_last_heartbeat differs from the item's latest
//     heartbeat; the answer says whether it did.
//   - POST …/stop {force?}: a queued item stops at once; a starting or
//     active one goes to "stopping" (stop_requested_at), or with force to
//     "stopped" (stopped_at), as does a stopping one with force.
//   - GET/POST …/work/{work_id} read it and patch its metadata (required;
//     null or "" deletes a key); GET …/work lists newest first (cursor
//     scheme); GET …/work/stats counts queued items (depth), taken and not
//     stopped ones (pending), and the workers whose polls are waiting.

// defaultWorkTTL is the lease a poll, an ack or a heartbeat gives.
const defaultWorkTTL = 300 * time.Second

// ManualClock is a clock that moves only when told: pass it to NewServer
// with WithManualClock, and polls of the work queue waiting for block_ms
// wake on Advance instead of a real timer, so tests never sleep. Safe for
// concurrent use.
type ManualClock struct {
	mu      sync.Mutex
	now     time.Time
	changed chan struct{}
}

// NewManualClock returns a clock reading t until advanced.
func NewManualClock(t time.Time) *ManualClock {
	return &ManualClock{now: t, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d and wakes whatever waits on it.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	close(c.changed)
	c.changed = make(chan struct{})
}

// moved returns a channel closed on the next Advance.
func (c *ManualClock) moved() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

// WithManualClock makes c the server's clock (as WithClock(c.Now) does),
// and lets the waits measured on it (a poll's block_ms) end on c.Advance.
func WithManualClock(c *ManualClock) Option {
	return func(cfg *config) { cfg.clock, cfg.manualClock = c.Now, c }
}

// workItem is one item of a queue.
type workItem struct {
	rec        workWire
	leaseUntil time.Time // while starting or active
	lastSeen   time.Time // the poll that took it or its latest heartbeat
	worker     string    // the Vendor-Worker-ID of the poll that took it
}

// workWire is the work record.
type workWire struct {
	ID                string            `json:"id"`
	Type              string            `json:"type"`
	EnvironmentID     string            `json:"environment_id"`
	State             string            `json:"state"`
	Data              workData          `json:"data"`
	Metadata          map[string]string `json:"metadata"`
	Secret            *string           `json:"secret"`
	CreatedAt         string            `json:"created_at"`
	AcknowledgedAt    *string           `json:"acknowledged_at"`
	StartedAt         *string           `json:"started_at"`
	LatestHeartbeatAt *string           `json:"latest_heartbeat_at"`
	StopRequestedAt   *string           `json:"stop_requested_at"`
	StoppedAt         *string           `json:"stopped_at"`
}

type workData struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// notify wakes the polls waiting on e; st.mu must be held.
func (e *storedEnv) notify() {
	close(e.wake)
	e.wake = make(chan struct{})
}

// enqueue adds a work item to e's queue and wakes its polls; st.mu must
// be held.
func (st *environmentStore) enqueue(e *storedEnv, data workData) string {
	ts := st.srv.now().UTC().Format(fileTimeLayout)
	rec := workWire{ID: st.srv.newID("work_"), Type: "work", EnvironmentID: e.rec.ID, State: "queued", Data: data,
		Metadata: map[string]string{}, CreatedAt: ts}
	if data.Type == "session" {
		secret, _ := json.Marshal(map[string]string{"sessions_token": sessionsTokenPrefix + data.ID, "api_base_url": st.srv.URL})
		s := base64.RawURLEncoding.EncodeToString(secret)
		rec.Secret = &s
	}
	e.work = append(e.work, &workItem{rec: rec})
	e.notify()
	return rec.ID
}

// enqueueSession queues a {type: "session", id: sessionID} item on envID,
// a self-hosted environment (the sessions endpoints call it when such a
// session is created), and wakes the polls waiting on it. It does nothing
// for an unknown or cloud environment.
func (st *environmentStore) enqueueSession(envID, sessionID string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if e := st.find(envID); e != nil && e.rec.Config.Type == "self_hosted" {
		st.enqueue(e, workData{Type: "session", ID: sessionID})
	}
}

// hasSessionWork reports whether a work item of some self-hosted
// environment runs sessionID, so that its sessions_token is valid.
func (st *environmentStore) hasSessionWork(sessionID string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, e := range st.envs {
		for _, it := range e.work {
			if it.rec.Data.Type == "session" && it.rec.Data.ID == sessionID {
				return true
			}
		}
	}
	return false
}

// EnqueueHealthcheck queues a {type: "healthcheck"} work item on the
// self-hosted environment envID and returns the item's id, waking the
// polls waiting on it.
func (s *Server) EnqueueHealthcheck(envID string) (string, error) {
	st := s.environments
	st.mu.Lock()
	defer st.mu.Unlock()
	e := st.find(envID)
	switch {
	case e == nil:
		return "", fmt.Errorf("mmstest: no environment %q", envID)
	case e.rec.Config.Type != "self_hosted":
		return "", fmt.Errorf("mmstest: environment %q is not self-hosted", envID)
	}
	return st.enqueue(e, workData{Type: "healthcheck", ID: s.newID("hc_")}), nil
}

// queryMS reads a non-negative millisecond query parameter; ok is false
// when it is absent.
func queryMS(r *http.Request, key string) (d time.Duration, ok bool, err error) {
	v := r.URL.Query().Get(key)
	if v == "" {
		return 0, false, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("%s: Input should be a non-negative integer", key)
	}
	return time.Duration(n) * time.Millisecond, true, nil
}

// take returns the item a poll takes now, or nil; st.mu must be held.
func (e *storedEnv) take(now time.Time, reclaim time.Duration, reclaiming bool) *workItem {
	for _, it := range e.work {
		if it.rec.State == "queued" {
			return it
		}
	}
	for _, it := range e.work {
		live := it.rec.State == "starting" || it.rec.State == "active"
		if live && (!now.Before(it.leaseUntil) || reclaiming && now.Sub(it.lastSeen) >= reclaim) {
			return it
		}
	}
	return nil
}

// poll serves GET /v1/environments/{environment_id}/work/poll.
func (st *environmentStore) poll(w http.ResponseWriter, r *http.Request) {
	block, _, err := queryMS(r, "block_ms")
	if err == nil {
		var reclaim time.Duration
		var reclaiming bool
		if reclaim, reclaiming, err = queryMS(r, "reclaim_older_than_ms"); err == nil {
			st.servePoll(w, r, block, reclaim, reclaiming)
			return
		}
	}
	writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
}

func (st *environmentStore) servePoll(w http.ResponseWriter, r *http.Request, block, reclaim time.Duration, reclaiming bool) {
	worker := r.Header.Get(wire.HeaderWorkerID)
	var e *storedEnv
	st.with(w, r, func(found *storedEnv) {
		if found.rec.Config.Type != "self_hosted" {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "Only self_hosted environments have a work queue: "+found.rec.ID)
			return
		}
		e = found
		e.polling[worker]++
	})
	if e == nil {
		return
	}
	defer withLock(&st.mu, func() {
		if e.polling[worker]--; e.polling[worker] == 0 {
			delete(e.polling, worker)
		}
	})
	deadline := st.srv.now().Add(block)
	manual := st.srv.cfg.manualClock
	for {
		var tick <-chan time.Time
		var moved <-chan struct{}
		if manual != nil {
			moved = manual.moved() // taken before the clock is read, so no Advance is missed
		}
		// One look at the queue, under the lock; the wait is outside it.
		now, wake, answered := st.pollOnce(w, r, e, worker, deadline, reclaim, reclaiming)
		if answered {
			return
		}
		if manual == nil {
			t := time.NewTimer(deadline.Sub(now))
			defer t.Stop()
			tick = t.C
		}
		select {
		case <-wake:
		case <-moved:
		case <-tick:
		case <-r.Context().Done():
		case <-st.srv.done:
		}
		if r.Context().Err() != nil {
			return // the client is gone; nothing is taken
		}
	}
}

// pollOnce answers a poll when e was deleted, has work to take, or the
// deadline has passed; otherwise it returns the time it looked at and the
// channel that wakes a waiting poll. It holds st.mu while it looks.
func (st *environmentStore) pollOnce(w http.ResponseWriter, r *http.Request, e *storedEnv, worker string,
	deadline time.Time, reclaim time.Duration, reclaiming bool) (now time.Time, wake <-chan struct{}, answered bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	now = st.srv.now()
	if e.deleted {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "Environment not found: "+e.rec.ID)
		return now, nil, true
	}
	if it := e.take(now, reclaim, reclaiming); it != nil {
		ts := now.UTC().Format(fileTimeLayout)
		it.rec.State, it.rec.StartedAt = "starting", &ts
		it.rec.AcknowledgedAt, it.rec.LatestHeartbeatAt = nil, nil
		it.leaseUntil, it.lastSeen, it.worker = now.Add(defaultWorkTTL), now, worker
		writeJSON(w, http.StatusOK, it.rec)
		return now, nil, true
	}
	if !now.Before(deadline) {
		w.WriteHeader(http.StatusNoContent)
		return now, nil, true
	}
	return now, e.wake, false
}

// getWork serves GET …/work/{work_id}.
func (st *environmentStore) getWork(w http.ResponseWriter, r *http.Request) {
	st.withWork(w, r, func(it *workItem) { writeJSON(w, http.StatusOK, it.rec) })
}

// updateWork serves POST …/work/{work_id}.
func (st *environmentStore) updateWork(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	if badBody(w, r, &b) {
		return
	}
	if b.Metadata == nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "metadata: Field required")
		return
	}
	st.withWork(w, r, func(it *workItem) {
		m, err := patchMetadata(it.rec.Metadata, b.Metadata, false, false)
		if err == nil {
			err = checkMetadata(m)
		}
		if err != nil {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
			return
		}
		it.rec.Metadata = m
		writeJSON(w, http.StatusOK, it.rec)
	})
}

// ack serves POST …/work/{work_id}/ack.
func (st *environmentStore) ack(w http.ResponseWriter, r *http.Request) {
	st.withWork(w, r, func(it *workItem) {
		if it.rec.State != "starting" {
			writeError(w, r, http.StatusConflict, wire.ErrInvalidRequest, fmt.Sprintf("Work %s is %s; only starting work can be acknowledged", it.rec.ID, it.rec.State))
			return
		}
		now := st.srv.now()
		ts := now.UTC().Format(fileTimeLayout)
		it.rec.State, it.rec.AcknowledgedAt = "active", &ts
		it.leaseUntil, it.lastSeen = now.Add(defaultWorkTTL), now
		writeJSON(w, http.StatusOK, it.rec)
	})
}

// heartbeat serves POST …/work/{work_id}/heartbeat.
func (st *environmentStore) heartbeat(w http.ResponseWriter, r *http.Request) {
	var b struct {
		DesiredTTLSeconds     *int    `json:"desired_ttl_seconds"`
		ExpectedLastHeartbeat *string `json:"expected_last_heartbeat"`
	}
	// a body is what clients before R2 send
	if r.ContentLength != 0 && badBody(w, r, &b) {
		return
	}
	if badIf(w, r, heartbeatQuery(r, &b.DesiredTTLSeconds, &b.ExpectedLastHeartbeat)) {
		return
	}
	ttl := defaultWorkTTL
	if b.DesiredTTLSeconds != nil {
		if *b.DesiredTTLSeconds < 1 {
			writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "desired_ttl_seconds: Input should be at least 1")
			return
		}
		ttl = time.Duration(*b.DesiredTTLSeconds) * time.Second
	}
	st.withWork(w, r, func(it *workItem) {
		now := st.srv.now()
		live := it.rec.State == "starting" || it.rec.State == "active"
		expected := b.ExpectedLastHeartbeat == nil ||
			it.rec.LatestHeartbeatAt != nil && *it.rec.LatestHeartbeatAt == *b.ExpectedLastHeartbeat
		extended := live && expected
		if extended {
			ts := now.UTC().Format(fileTimeLayout)
			it.rec.LatestHeartbeatAt = &ts
			it.leaseUntil, it.lastSeen = now.Add(ttl), now
		}
		last := ""
		if it.rec.LatestHeartbeatAt != nil {
			last = *it.rec.LatestHeartbeatAt
		}
		left := 0
		if live {
			left = int(max(it.leaseUntil.Sub(now), 0) / time.Second)
		}
		writeJSON(w, http.StatusOK, map[string]any{"type": "work_heartbeat", "last_heartbeat": last,
			"lease_extended": extended, "state": it.rec.State, "ttl_seconds": left})
	})
}

// stop serves POST …/work/{work_id}/stop.
func (st *environmentStore) stop(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Force *bool `json:"force"`
	}
	if r.ContentLength == 0 {
		// no body: force is optional
	} else if err := decodeStrictJSON(r, &b); err != nil {
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, err.Error())
		return
	}
	force := b.Force != nil && *b.Force
	st.withWork(w, r, func(it *workItem) {
		ts := st.srv.now().UTC().Format(fileTimeLayout)
		if it.rec.State != "stopped" && it.rec.StopRequestedAt == nil {
			it.rec.StopRequestedAt = &ts
		}
		switch {
		case it.rec.State == "queued", force && it.rec.State != "stopped":
			it.rec.State, it.rec.StoppedAt = "stopped", &ts
		case it.rec.State == "starting" || it.rec.State == "active":
			it.rec.State = "stopping"
		}
		writeJSON(w, http.StatusOK, it.rec)
	})
}

// listWork serves GET …/work, newest first.
func (st *environmentStore) listWork(w http.ResponseWriter, r *http.Request) {
	st.with(w, r, func(e *storedEnv) {
		writeCursorList(w, r, newestFirst(e.work, func(it *workItem) (workWire, bool) { return it.rec, true }),
			newestByID(func(w workWire) string { return w.ID }))
	})
}

// stats serves GET …/work/stats.
func (st *environmentStore) stats(w http.ResponseWriter, r *http.Request) {
	st.with(w, r, func(e *storedEnv) {
		depth, pending := 0, 0
		var oldest *string
		for _, it := range e.work {
			switch it.rec.State {
			case "queued":
				if depth++; oldest == nil {
					oldest = &it.rec.CreatedAt
				}
			case "starting", "active", "stopping":
				pending++
			}
		}
		workers := len(e.polling)
		if n := e.polling[""]; n > 1 {
			workers += n - 1 // each anonymous poll is a worker of its own
		}
		writeJSON(w, http.StatusOK, map[string]any{"type": "work_queue_stats", "depth": depth, "pending": pending,
			"oldest_queued_at": oldest, "workers_polling": workers})
	})
}

// withWork runs f on the work item the path names, with st.mu held, or
// answers 404.
func (st *environmentStore) withWork(w http.ResponseWriter, r *http.Request, f func(*workItem)) {
	st.with(w, r, func(e *storedEnv) {
		if it := pathItem(w, r, e.work, "work_id", "Work", func(it *workItem) string { return it.rec.ID }); it != nil {
			f(it)
		}
	})
}
