package mmstest

import (
	"bytes"
	"context"
	"net/http"
)

// maxLoggedBody caps the body kept per logged request, so that logging large
// uploads does not hold them in memory.
const maxLoggedBody = 1 << 20

// Request is one request the server received, as logged by Requests.
type Request struct {
	Method   string
	Path     string
	RawQuery string
	// Header is a copy of the request headers, credentials included, so tests
	// can check what a client sent.
	Header http.Header
	// Body holds the first 1 MiB of the body.
	Body []byte
	// BodySize is the number of body bytes the server read. It is 0 when
	// the request was refused before its body was read (authentication,
	// version, beta, or a Content-Length over the limit) and stops at the
	// limit for an oversized chunked body.
	BodySize int64
	// RequestID is the id the server answered with in the request-id header.
	RequestID string
}

// record logs r when it arrives, so the log is in arrival order even when
// bodies take different times to read.
func (s *Server) record(r *http.Request, id string) *Request {
	rec := &Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery, Header: r.Header.Clone(), RequestID: id}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, rec)
	return rec
}

// setBody completes the log entry once the body has been read.
func (s *Server) setBody(rec *Request, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec.Body = bytes.Clone(body[:min(len(body), maxLoggedBody)])
	rec.BodySize = int64(len(body))
}

// Requests returns every request received since the start or the last
// ResetRequests, in arrival order. The result is a copy the caller may modify.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, rec := range s.requests {
		out[i] = *rec
		out[i].Header = rec.Header.Clone()
		out[i].Body = bytes.Clone(rec.Body)
	}
	return out
}

// ResetRequests empties the request log.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}

type requestIDKey struct{}

func withRequestID(r *http.Request, id string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id))
}

// requestID returns the id assigned to the request being served, the value
// of its request-id response header.
func requestID(r *http.Request) string {
	id, _ := r.Context().Value(requestIDKey{}).(string)
	return id
}
