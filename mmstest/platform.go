package mmstest

import (
	"context"
	"net/http"
)

// PlatformFront puts a partner or cloud platform's wire in front of the
// fake, so a platform adapter can be tested end to end with no cloud
// account. The platform modules provide them (bedrock/bedrocktest, …).
//
// ServePlatform gets every request the server receives. It checks what the
// platform checks (its authentication, body rules and size limit) and
// answers refusals in the platform's shape; otherwise it rewrites the
// request into the service's own shape (path, body, headers; no credential
// needed) and calls service, which applies every rule of the fake except
// authentication, then translates service's answer into the platform's
// (framing, error bodies, request-id header).
type PlatformFront interface {
	ServePlatform(w http.ResponseWriter, r *http.Request, service http.Handler)
}

// WithPlatform serves the platform front f in front of the fake.
func WithPlatform(f PlatformFront) Option {
	return func(c *config) { c.platform = f }
}

// frontAuthKey marks a request a platform front authenticated.
type frontAuthKey struct{}

// handler returns the server's handler: serve, behind the platform front
// when one is configured.
func (s *Server) handler() http.Handler {
	if s.cfg.platform == nil {
		return http.HandlerFunc(s.serve)
	}
	service := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.serve(w, r.WithContext(context.WithValue(r.Context(), frontAuthKey{}, true)))
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.cfg.platform.ServePlatform(w, r, service)
	})
}

// frontAuthenticated reports a request a platform front let through.
func frontAuthenticated(r *http.Request) bool {
	ok, _ := r.Context().Value(frontAuthKey{}).(bool)
	return ok
}
