package mms

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"

	"github.com/mms-sdk/mms-go/option"
)

// Handler returns an http.Handler that receives webhook deliveries: it
// verifies each one ([WebhooksService.Unwrap]'s rules), decodes it, drops
// redeliveries, and calls fn with the event. The service retries a
// delivery that is not answered with a 2xx, so fn sees each event at
// least once; once fn returned nil for it, fn does not see it again while
// the handler remembers it. Its answers:
//
//   - 204 when fn returned nil, and for a redelivery of an event fn already
//     handled (fn is not called again);
//   - 500 when fn returned an error: the service delivers it again, and
//     the handler calls fn again (a failure is not remembered). A panic in
//     fn also forgets the event, then goes on to net/http, which closes
//     the connection;
//   - 409 for a redelivery that arrives while fn is still handling the
//     event: answering 2xx could lose the event if fn then fails;
//   - 401 for a delivery that failed verification (matching
//     [ErrWebhookSignature]), 400 for a verified body that is not an
//     event, 413 for a body over the bound, 405 for a method other than
//     POST;
//   - 500 for every delivery while no signing secret is configured, or an
//     option is invalid: the configuration, not the delivery, is wrong,
//     and the service keeps them until it is fixed.
//
// A delivery is a redelivery when its webhook-id or its event id was seen
// before. The handler remembers the last option.WithWebhookDedupSize
// handled deliveries (default [DefaultWebhookDedupSize]) and forgets the
// oldest first, so memory stays bounded; a redelivery after that many
// others is handled again, so fn must still tolerate a repeat (events are
// ids, and the object is read fresh: [WebhooksService.Fetch]).
//
// opts are the verification options (option.WithWebhookSecret,
// WithWebhookTolerance, WithWebhookMaxBody) and WithWebhookDedupSize, on
// top of the client's; they are read once, here. fn gets the request's
// context. When the client has a logger (option.WithLogger), fn's errors
// and refused deliveries are logged at warning level, without secrets.
// A complete program:
//
//	func main() {
//		// The credential and base URL come from the environment; the
//		// secret from $VENDOR_WEBHOOK_SIGNING_KEY or, as here, an option.
//		client, err := mms.NewClient(option.WithWebhookSecret(os.Getenv("MY_WEBHOOK_SECRET")))
//		if err != nil {
//			log.Fatal(err)
//		}
//		http.Handle("POST /webhooks", client.Webhooks.Handler(func(ctx context.Context, wh *mms.Webhook) error {
//			switch ev := wh.Data.(type) {
//			case mms.WebhookSessionStatusIdled:
//				session, err := client.Sessions.Get(ctx, ev.ID)
//				if err != nil {
//					return err // answered 500: the service delivers it again
//				}
//				log.Printf("session %s is %s", session.ID, session.Status)
//			default:
//				log.Printf("event %s about %s", ev.EventType(), ev.ObjectID())
//			}
//			return nil
//		}))
//		log.Fatal(http.ListenAndServe(":8080", nil))
//	}
func (s *WebhooksService) Handler(fn func(ctx context.Context, wh *Webhook) error, opts ...option.RequestOption) http.Handler {
	if fn == nil {
		panic("mms: Webhooks.Handler: fn is nil")
	}
	w, err := s.settings(opts)
	h := &webhookHandler{fn: fn, settings: w, err: err, logger: s.client.cfg.Logger}
	h.seen.init(w.dedup)
	return h
}

type webhookHandler struct {
	fn       func(context.Context, *Webhook) error
	settings webhookSettings
	err      error // the configuration's error: every delivery gets a 500
	logger   *slog.Logger
	seen     deliveryLog
}

func (h *webhookHandler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		rw.Header().Set("Allow", http.MethodPost)
		h.refuse(rw, http.StatusMethodNotAllowed, errors.New("webhook deliveries are POSTed"))
		return
	}
	if h.err != nil {
		h.refuse(rw, http.StatusInternalServerError, h.err)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, h.settings.maxBody+1))
	if err != nil {
		h.refuse(rw, http.StatusBadRequest, fmt.Errorf("reading the body: %w", err))
		return
	}
	if err := h.settings.verify(body, r.Header); err != nil {
		status := http.StatusUnauthorized
		if errors.Is(err, ErrWebhookBodyTooLarge) {
			status = http.StatusRequestEntityTooLarge
		}
		h.refuse(rw, status, err)
		return
	}
	wh, err := decodeWebhook(body)
	if err != nil {
		h.refuse(rw, http.StatusBadRequest, err)
		return
	}
	keys := [2]string{"d:" + headerValue(r.Header, headerWebhookID), "e:" + wh.ID}
	switch h.seen.begin(keys) {
	case deliveryDone:
		rw.WriteHeader(http.StatusNoContent)
		return
	case deliveryInFlight:
		h.refuse(rw, http.StatusConflict, fmt.Errorf("event %s is being handled; deliver it again later", wh.ID))
		return
	}
	if err := h.call(r.Context(), wh, keys); err != nil {
		if h.logger != nil {
			h.logger.Warn("mms: webhook handler failed; answered 500 so the service delivers it again",
				"event_id", wh.ID, "event_type", wh.Data.EventType(), "error", err)
		}
		http.Error(rw, "the event's handler failed", http.StatusInternalServerError)
		return
	}
	rw.WriteHeader(http.StatusNoContent)
}

// call runs fn; the event is remembered as done only when fn returns nil.
// A panic releases the event (so a redelivery runs fn again) and goes on
// to net/http, which answers by closing the connection.
func (h *webhookHandler) call(ctx context.Context, wh *Webhook, keys [2]string) (err error) {
	ok := false
	defer func() { h.seen.end(keys, ok) }()
	err = h.fn(ctx, wh)
	ok = err == nil
	return err
}

// refuse answers status with err's text (which holds no secret) and logs it.
func (h *webhookHandler) refuse(rw http.ResponseWriter, status int, err error) {
	if h.logger != nil {
		h.logger.Warn("mms: webhook delivery refused", "status", status, "error", err)
	}
	http.Error(rw, err.Error(), status)
}

// The states of a delivery in a deliveryLog.
const (
	deliveryNew = iota
	deliveryInFlight
	deliveryDone
)

// deliveryLog remembers deliveries by key (webhook-id and event id): those
// being handled, and the last max handled, oldest forgotten first.
type deliveryLog struct {
	mu       sync.Mutex
	max      int
	inFlight map[string]bool
	done     map[string]*list.Element // both keys of an entry
	order    *list.List               // of [2]string, oldest at the front
}

func (l *deliveryLog) init(max int) {
	l.max, l.inFlight, l.done, l.order = max, map[string]bool{}, map[string]*list.Element{}, list.New()
}

// begin reports a delivery's state, and marks a new one in flight.
func (l *deliveryLog) begin(keys [2]string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		if e, ok := l.done[k]; ok {
			l.order.MoveToBack(e)
			return deliveryDone
		}
	}
	for _, k := range keys {
		if l.inFlight[k] {
			return deliveryInFlight
		}
	}
	for _, k := range keys {
		l.inFlight[k] = true
	}
	return deliveryNew
}

// end takes a delivery out of flight, remembering it when handled.
func (l *deliveryLog) end(keys [2]string, handled bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, k := range keys {
		delete(l.inFlight, k)
	}
	if !handled {
		return
	}
	e := l.order.PushBack(keys)
	for _, k := range keys {
		l.done[k] = e
	}
	for l.order.Len() > l.max {
		front := l.order.Front()
		for _, k := range l.order.Remove(front).([2]string) {
			if l.done[k] == front { // a key may have moved to a later entry
				delete(l.done, k)
			}
		}
	}
}
