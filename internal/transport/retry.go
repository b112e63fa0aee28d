package transport

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// Retry classes a request by what sending it again can do. A 500, a
// timeout or a dropped connection after the request was written does not
// mean the operation failed: a request that creates something is sent
// again only when the failed attempt provably took no effect. Each
// endpoint declares its class (the root's endpoint.go); the zero value
// classes by method, so a POST nobody classed is Creating.
type Retry uint8

const (
	// RetryByMethod, the zero value: GET, HEAD, OPTIONS and TRACE are
	// Safe, PUT and DELETE Idempotent, anything else (POST, PATCH)
	// Creating.
	RetryByMethod Retry = iota
	// Safe requests change nothing (reads). Retried after every retryable
	// failure: a connection error, a timed-out attempt, 408, 409, 429, any
	// 5xx, or x-should-retry: true.
	Safe
	// Idempotent requests have the same effect sent once or more, by the
	// service's contract (delete, archive, cancel, an update that sets
	// fields). Retried like Safe ones.
	Idempotent
	// Stateless requests leave nothing behind to duplicate (Messages
	// create and stream, count tokens). Retried like Safe ones.
	Stateless
	// Creating requests make something each time they take effect (a
	// batch, a session, a delivered event, an agent, an upload). Retried
	// only when the failed attempt provably did not take effect: no
	// connection was made or the request was not fully written, the answer
	// was 429, or the service said x-should-retry: true. After any other
	// failure the error matches ErrMaybeApplied (Errors.MaybeApplied).
	Creating
)

// class is r's Retry class with RetryByMethod resolved.
func (r *Request) class() Retry {
	if r.Retry != RetryByMethod {
		return r.Retry
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return Safe
	case http.MethodPut, http.MethodDelete:
		return Idempotent
	}
	return Creating
}

// Removal says what a "no longer there" answer to a resent request means.
type Removal uint8

const (
	// RemovesNothing: a 404 is an error like any other.
	RemovesNothing Removal = iota
	// Deletes: the request deletes a record. When it was sent again after
	// an attempt that may have taken effect, a 404 says that attempt
	// deleted it: Do returns success with Response.Resent.
	Deletes
	// Archives: the request archives a record. When sent again after an
	// attempt that may have taken effect, a 404 or an "already archived"
	// refusal says that attempt archived it: success with Response.Resent.
	// A first attempt answered so stays an error.
	Archives
)

// fate is what a failed attempt says about the request's effect.
type fate uint8

const (
	// unsent: no connection was made or the request was not fully
	// written; the service cannot have acted on it.
	unsent fate = iota
	// refused: the service answered that it did not act (a 4xx, or
	// x-should-retry: true on any status).
	refused
	// unknown: the request reached the service and the answer does not
	// say whether it acted (a 5xx, a timeout or dropped connection after
	// writing, a success whose body was lost).
	unknown
)

// failure is what Do needs to know about a failed attempt.
type failure struct {
	retryable  bool // a kind of failure worth retrying (see Safe)
	replayable bool // the body can be sent again
	fate       fate
	status     int  // the answer's status; 0 without one
	timeout    bool // timed out or dropped: costs the retry budget more
	// resendOK: the failure itself invites a resend, whatever the class:
	// a 429, or x-should-retry: true.
	resendOK bool
	body     []byte // the error answer's body
}

// withBody is f as if its body could be sent again: whether the class
// would retry it but for the body.
func (f failure) withBody() failure {
	f.replayable = true
	return f
}

// mayRetry applies the request's class to a failure of a retryable kind.
func (f failure) mayRetry(c Retry) bool {
	if !f.retryable || !f.replayable {
		return false
	}
	return c != Creating || f.fate == unsent || f.resendOK
}

// responseFailure classes an error answer.
func responseFailure(resp *http.Response, body []byte, replayable bool) failure {
	f := failure{status: resp.StatusCode, replayable: replayable}
	should := strings.ToLower(strings.TrimSpace(resp.Header.Get(wire.HeaderShouldRetry)))
	f.retryable = ShouldRetry(resp) && !wire.FinalConflict(resp.StatusCode, body)
	switch {
	case should == "true":
		f.fate, f.resendOK = refused, true
	case resp.StatusCode == http.StatusTooManyRequests:
		f.fate, f.resendOK = refused, should != "false"
	case resp.StatusCode < 500:
		f.fate = refused
	default:
		f.fate = unknown
	}
	return f
}

// alreadyGone reports whether an answer to a resent removal says an
// earlier attempt did it: a 404, or for an archive a 400/409 saying the
// record is already archived.
func alreadyGone(rm Removal, status int, body []byte) bool {
	switch {
	case rm == RemovesNothing:
		return false
	case status == http.StatusNotFound:
		return true
	case rm != Archives || (status != http.StatusBadRequest && status != http.StatusConflict):
		return false
	}
	var eb struct {
		Error struct {
			Message string `json:"message"`
			Details struct {
				ErrorCode string `json:"error_code"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &eb) != nil {
		return false
	}
	code := eb.Error.Details.ErrorCode
	return code == "already_archived" || strings.HasSuffix(code, "_already_archived") ||
		strings.Contains(strings.ToLower(eb.Error.Message), "already archived")
}

// sendTrace follows one attempt through net/http (httptrace): whether a
// connection was asked for and whether the request was fully written. A
// round tripper that is not net/http's reports neither; then nothing is
// known, and the fate of a failure without an answer is unknown.
type sendTrace struct {
	getConn, wrote atomic.Bool
}

// trace returns ctx with the hooks that fill t (composed with any trace
// the caller's context holds).
func (t *sendTrace) trace(ctx context.Context) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn: func(string) { t.getConn.Store(true) },
		WroteRequest: func(i httptrace.WroteRequestInfo) {
			if i.Err == nil {
				t.wrote.Store(true)
			}
		},
	})
}

// fate is what a failure without an answer says about the request: unsent
// when net/http looked for a connection but never finished writing the
// request (a dial error, a failure while writing), unknown otherwise.
func (t *sendTrace) fate() fate {
	if t.getConn.Load() && !t.wrote.Load() {
		return unsent
	}
	return unknown
}
