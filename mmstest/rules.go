package mmstest

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// serve is the server's only handler. It applies the service's rules in the
// service's order: (1) authentication, (2) vendor-version, (3) vendor-beta,
// (4) body size, (5) injected faults, then rate limiting, (6) routing to an
// endpoint, or 404/405. The first rule that fails answers and the rest never
// run, so endpoint handlers see only requests that passed them all.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	r, rec := s.begin(w, r)
	rt := s.match(r) // nil for an unknown route, answered 404 or 405 by route
	if rt != nil && rt.open != nil {
		rt.open(w, r, rec)
		return
	}
	if !s.checkAuth(w, r) || !checkVersion(w, r) || !checkBetas(w, r) || !s.readBody(w, r, rec, rt) {
		return
	}
	w, finish, answered := s.applyFault(w, r)
	defer finish()
	if answered || !s.checkRateLimit(w, r) {
		return
	}
	s.route(w, r)
}

// begin assigns the request id, sets the headers every response carries and
// logs the request. The returned request carries the id in its context.
func (s *Server) begin(w http.ResponseWriter, r *http.Request) (*http.Request, *Request) {
	id := s.newID("req_")
	r = withRequestID(r, id)
	h := w.Header()
	h.Set(wire.HeaderRequestID, id)
	h.Set(wire.HeaderOrganizationID, s.cfg.organizationID)
	return r, s.record(r, id)
}

// checkAuth checks exactly one credential, x-api-key if present and the bearer
// token otherwise, as the service does. Messages never repeat the credential.
func (s *Server) checkAuth(w http.ResponseWriter, r *http.Request) bool {
	if frontAuthenticated(r) { // a platform front checked the platform's own credential
		return true
	}
	var ok bool
	var msg string
	if keys, present := r.Header[wire.HeaderAPIKey]; present {
		ok, msg = len(keys) == 1 && oneOf(keys[0], s.cfg.apiKeys), "invalid x-api-key"
		if !ok && len(keys) == 1 && oneOf(keys[0], s.cfg.adminKeys) {
			// An admin key authenticates the Organization API (admin.go) and
			// compliance review (admin_compliance.go) only.
			ok = strings.HasPrefix(r.URL.Path, orgPathPrefix) || strings.HasPrefix(r.URL.Path, reviewPathPrefix)
			msg = "admin API keys are accepted only by the Organization API (/v1/organizations/) and compliance review (/v1/compliance/review/)"
		}
	} else if auth, present := r.Header[wire.HeaderAuthorization]; present {
		token := ""
		if len(auth) == 1 {
			token = bearerToken(auth[0])
		}
		// A self-hosted work item's sessions_token reaches its own session only.
		ok, msg = oneOf(token, s.cfg.authTokens) || oneOf(token, s.cfg.orgAdminTokens) || s.sessionTokenAllows(token, r), "invalid bearer token"
		if known, valid := s.mintedStatus(token); known && !ok {
			switch {
			case !valid:
				msg = "the access token has expired or been revoked"
			case !hasBeta(betaNames(r.Header), wire.BetaOAuth):
				msg = "OAuth authentication is currently not supported."
			default:
				ok = true
			}
		}
	} else {
		msg = "missing credentials: send an x-api-key header or an Authorization: Bearer token"
	}
	if !ok {
		writeError(w, r, http.StatusUnauthorized, wire.ErrAuthentication, msg)
	}
	return ok
}

// bearerToken returns the token of a "Bearer <token>" Authorization value
// (the scheme is case-insensitive, RFC 9110 section 11.1), or "" for any
// other scheme.
func bearerToken(auth string) string {
	scheme, token, _ := strings.Cut(auth, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimLeft(token, " ")
}

// oneOf reports whether secret equals one of accepted, comparing in constant
// time like a real credential check. An empty credential never matches.
func oneOf(secret string, accepted []string) bool {
	if secret == "" {
		return false
	}
	found := 0
	for _, a := range accepted {
		found |= subtle.ConstantTimeCompare([]byte(secret), []byte(a))
	}
	return found == 1
}

// checkVersion requires an API version the service knows (2023-06-01 or
// 2026-10-21; the second's refusals are in version.go).
func checkVersion(w http.ResponseWriter, r *http.Request) bool {
	switch v := r.Header.Get(wire.HeaderVersion); {
	case wire.KnownVersion(v):
		return true
	case v == "":
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "vendor-version: header is required")
	default:
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest,
			fmt.Sprintf("vendor-version: %q is not a valid version", v))
	}
	return false
}

// checkBetas accepts only known beta names, refuses the managed-agents and
// agent-memory betas together on memory stores, and requires the beta an
// endpoint family needs.
func checkBetas(w http.ResponseWriter, r *http.Request) bool {
	names := betaNames(r.Header)
	var unknown []string
	for _, n := range names {
		if !wire.IsKnownBeta(n) {
			unknown = append(unknown, n)
		}
	}
	path := r.URL.Path
	required := wire.RequiredBeta(path)
	if required == wire.BetaUserProfiles && !profileBetaOnly(path) {
		required = "" // GA: a user-profiles beta only selects the beta record
	}
	var msg string
	switch {
	case len(unknown) > 0:
		msg = fmt.Sprintf("Unexpected value(s) `%s` for the `vendor-beta` header. "+
			"Please consult the documentation or try again without the header.", strings.Join(unknown, "`, `"))
	case strings.HasPrefix(path, "/v1/memory_stores") &&
		hasBeta(names, wire.BetaManagedAgents) && hasBeta(names, wire.BetaAgentMemory):
		msg = fmt.Sprintf("vendor-beta: %s cannot be combined with %s; memory store endpoints take %s only",
			wire.BetaManagedAgents, wire.BetaAgentMemory, wire.BetaAgentMemory)
	case required != "" && !meetsBeta(names, required):
		msg = fmt.Sprintf("vendor-beta: this endpoint requires the %s beta", required)
	default:
		return true
	}
	writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, msg)
	return false
}

// betaNames returns every beta name in h, whether sent as one comma-separated
// header or as repeated header lines. Empty list elements are skipped, as
// RFC 9110 section 5.6.1 requires of recipients.
func betaNames(h http.Header) []string {
	var names []string
	for _, line := range h.Values(wire.HeaderBeta) {
		for _, n := range strings.Split(line, ",") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
	}
	return names
}

// meetsBeta reports whether names satisfy an endpoint's required beta: the
// user-profiles requirement is met by the seed value or any dated
// user-profiles-* value (unknown dates were refused before).
func meetsBeta(names []string, required string) bool {
	if required == wire.BetaUserProfiles {
		return slices.ContainsFunc(names, func(n string) bool {
			return n == required || strings.HasPrefix(n, required+"-")
		})
	}
	return hasBeta(names, required)
}

func hasBeta(names []string, beta string) bool {
	for _, n := range names {
		if n == beta {
			return true
		}
	}
	return false
}

// readBody enforces the endpoint's size limit and reads the whole body so
// that the log and the handlers can both read it: buffered in memory, or,
// for a large or chunked multipart upload to /v1/files or /v1/skills,
// spooled to a temporary file (spoolBody, uploads.go). A declared
// Content-Length over the limit is refused before reading a single body
// byte; a chunked body is counted while it is read.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, rec *Request, rt *route) bool {
	limit := wire.BodyLimit(r.URL.Path)
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close") // the unread body makes the connection unusable
		writeTooLarge(w, r, limit)
		return false
	}
	if spoolsBody(r, rt) { // a large multipart upload goes to a temporary file instead (uploads.go)
		return s.spoolBody(w, r, rec, limit)
	}
	body, err := readAll(http.MaxBytesReader(w, r.Body, limit), r.ContentLength)
	s.setBody(rec, body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		writeTooLarge(w, r, limit)
		return false
	case err != nil:
		writeError(w, r, http.StatusBadRequest, wire.ErrInvalidRequest, "could not read the request body")
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// readAll reads a body whose length is declared into one buffer of that
// size (io.ReadAll would grow one by doubling: twice the memory for a
// 256 MiB batch), and any other body as io.ReadAll does.
func readAll(r io.Reader, declared int64) ([]byte, error) {
	if declared <= 0 {
		return io.ReadAll(r)
	}
	body := make([]byte, declared)
	n, err := io.ReadFull(r, body)
	return body[:n], err
}

func writeTooLarge(w http.ResponseWriter, r *http.Request, limit int64) {
	writeError(w, r, http.StatusRequestEntityTooLarge, wire.ErrRequestTooLarge,
		fmt.Sprintf("Request exceeds the maximum allowed number of bytes (%d) for this endpoint.", limit))
}

// route dispatches to the registered endpoints. When no pattern matches, the
// mux knows whether the path exists with other methods (405) or not at all
// (404); it is asked on a scratch recorder and the answer is rewritten into
// the service's error shape, since the mux's own bodies are plain text.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	if _, pattern := s.mux.Handler(r); pattern != "" {
		s.mux.ServeHTTP(w, r)
		return
	}
	probe := httptest.NewRecorder()
	s.mux.ServeHTTP(probe, r)
	if probe.Code == http.StatusMethodNotAllowed {
		w.Header().Set("Allow", probe.Header().Get("Allow"))
		writeError(w, r, http.StatusMethodNotAllowed, wire.ErrInvalidRequest,
			fmt.Sprintf("Method Not Allowed: %s %s", r.Method, r.URL.Path))
		return
	}
	writeError(w, r, http.StatusNotFound, wire.ErrNotFound, fmt.Sprintf("Not Found: %s %s", r.Method, r.URL.Path))
}
