package mms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/option"
)

// SendOnce sends events to a session like [SessionEventsService.Send], and
// never delivers them twice: when a send fails in a way that may have
// taken effect (the error matches [ErrMaybeApplied]: a 5xx, a timeout or
// a dropped connection after the request was written), it looks for the
// events among the session's stored events before sending them again.
// Found, they are the answer (Data holds the stored events, in the order
// sent) and SendOnce returns nil; not found, they are sent again, up to
// the client's retry count (option.WithMaxRetries).
//
// Events carry no id the client could choose, so SendOnce recognises them
// by content: before sending it reads the newest page of the session's
// events (one more request per call, GET …/events?order=desc) to know
// what was there already, and after a failure it lists the events stored
// since (newest first, stopping at the newest event that was processed
// before the send). A stored event matches a sent one when it has the
// same type and holds every member that was sent with the same value
// (the service adds id, processed_at and the like). The check relies on
// the list's order: processed events by processing time, queued ones
// after them. Two identical events sent at the same time by two callers
// cannot be told apart; one of them would be taken for the other's.
//
// When only some of the events are found, or looking fails, SendOnce
// returns the send's error (still matching ErrMaybeApplied) with what it
// found: the caller decides. Send stays the plain, one-request call.
func (s *SessionEventsService) SendOnce(ctx context.Context, sessionID string, p SessionEventSendParams, opts ...option.RequestOption) (*SessionEventSendResult, error) {
	e := s.all(sessionID)
	if err := e.check(p); err != nil {
		return nil, err
	}
	cl := s.client.newCall(opts)
	if cl.err != nil {
		return nil, cl.err
	}
	sent := make([][]byte, len(p.Events))
	for i, ev := range p.Events {
		b, err := codec.MarshalRequest(ev)
		if err != nil {
			return nil, fmt.Errorf("mms: encoding events[%d]: %w", i, err)
		}
		sent[i] = b
	}
	before, err := s.eventsBefore(ctx, sessionID, opts)
	if err != nil {
		return nil, fmt.Errorf("mms: SendOnce: reading the session's newest events before sending: %w", err)
	}
	for attempt := 1; ; attempt++ {
		res, err := s.Send(ctx, sessionID, p, opts...)
		if err == nil || !errors.Is(err, ErrMaybeApplied) {
			return res, err
		}
		found, ferr := s.findSent(ctx, sessionID, before, sent, opts)
		switch {
		case ferr != nil:
			return nil, fmt.Errorf("%w; looking for the events among the stored ones failed: %w", err, ferr)
		case len(found) == len(sent):
			return &SessionEventSendResult{Data: found}, nil
		case len(found) > 0:
			return nil, fmt.Errorf("%w; %d of the %d events sent are stored, the others are not: not sent again", err, len(found), len(sent))
		case attempt > cl.cfg.MaxRetries:
			return nil, err
		}
		var apiErr *Error
		var h http.Header
		if errors.As(err, &apiErr) {
			h = apiErr.Header
		}
		if err := sleepCtx(ctx, transport.RetryDelay(h, attempt-1)); err != nil {
			return nil, fmt.Errorf("%w (gave up waiting to send again: %w)", err, ctx.Err())
		}
	}
}

// eventsSeen is what a session held before a send: the ids of the newest
// events up to and including the newest processed one (its anchor), where
// a list after the send stops.
type eventsSeen struct {
	ids    map[string]bool
	anchor string // "" when the page held no processed event
}

// eventsBefore reads the newest page of the session's events.
func (s *SessionEventsService) eventsBefore(ctx context.Context, sessionID string, opts []option.RequestOption) (eventsSeen, error) {
	seen := eventsSeen{ids: map[string]bool{}}
	page, err := s.ListPage(ctx, sessionID, SessionEventListParams{Limit: 100, Order: ListOrderDesc}, opts...)
	if err != nil {
		return seen, err
	}
	for _, ev := range page.Data {
		id := ev.EventID()
		if id == "" {
			continue
		}
		seen.ids[id] = true
		if ev.processedAt() != "" {
			seen.anchor = id
			break
		}
	}
	return seen, nil
}

// findSent lists the events stored since before and returns those that
// match the sent events, in the order sent: one stored event per sent
// one, the first that matches; shorter than sent when some are missing.
func (s *SessionEventsService) findSent(ctx context.Context, sessionID string, before eventsSeen, sent [][]byte, opts []option.RequestOption) ([]SessionEvent, error) {
	var since []SessionEvent
	for ev, err := range s.List(ctx, sessionID, SessionEventListParams{Limit: 100, Order: ListOrderDesc}, opts...) {
		if err != nil {
			return nil, err
		}
		id := ev.EventID()
		if before.anchor != "" && id == before.anchor {
			break
		}
		if id == "" || !before.ids[id] {
			since = append(since, ev)
		}
	}
	used := make([]bool, len(since))
	var found []SessionEvent
	for _, want := range sent {
		for i := len(since) - 1; i >= 0; i-- { // oldest first
			if used[i] {
				continue
			}
			stored, err := codec.Marshal(since[i])
			if err != nil {
				return nil, err
			}
			if storedHolds(stored, want) {
				used[i] = true
				found = append(found, since[i])
				break
			}
		}
	}
	return found, nil
}

// storedHolds reports whether a stored event's JSON holds every member of
// a sent event's JSON with the same value.
func storedHolds(stored, sent []byte) bool {
	var a, b any
	if decodeNumbers(stored, &a) != nil || decodeNumbers(sent, &b) != nil {
		return false
	}
	return jsonContains(a, b)
}

func decodeNumbers(data []byte, v *any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// jsonContains reports whether have holds want: objects hold each of
// want's members (more are allowed), arrays element by element with the
// same length, other values equal.
func jsonContains(have, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			hv, ok := h[k]
			if !ok {
				if wv == nil {
					continue // an explicit null is the member left out
				}
				return false
			}
			if !jsonContains(hv, wv) {
				return false
			}
		}
		return true
	case []any:
		h, ok := have.([]any)
		if !ok || len(h) != len(w) {
			return false
		}
		for i := range w {
			if !jsonContains(h[i], w[i]) {
				return false
			}
		}
		return true
	}
	return have == want
}
