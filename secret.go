package mms

import (
	"log/slog"
	"reflect"
	"sync"

	"github.com/mms-sdk/mms-go/option"
)

// Secret is a write-only credential in a request or a record: an access or
// refresh token, a client secret, a secret value, a repository's
// authorization token, a tunnel's or a work item's token. It goes on the
// wire as the JSON string it holds, but no fmt verb and no slog handler
// prints it: they show "<redacted>" (or "" when it is empty). Make one
// with [NewSecret] and read it back with its Reveal method; compare two
// with Equal.
//
// It is [option.Secret] (the type of [option.Token]'s AccessToken), so
// the two mix freely. See there why no verb, %p and %w included, reaches
// the value.
type Secret = option.Secret

// NewSecret returns a Secret holding v; NewSecret("") is the zero Secret.
func NewSecret(v string) Secret { return option.NewSecret(v) }

// secretsIn returns the values of every Secret reachable from v (through
// pointers, interfaces, structs with their unexported fields, slices,
// arrays and map values).
// The pipeline calls it when it builds an error, to scrub them from what
// the server sent back (transport.Scrubber).
func secretsIn(v any) []string {
	var out []string
	seen := map[uintptr]bool{}
	var walk func(reflect.Value, int)
	walk = func(v reflect.Value, depth int) {
		if !v.IsValid() || depth > 64 || !mayHoldSecret(v.Type()) {
			return
		}
		if v.Type() == secretType {
			if p := v.Field(0); !p.IsNil() {
				out = append(out, p.Elem().String())
			}
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem(), depth+1)
		case reflect.Interface:
			walk(v.Elem(), depth+1)
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), depth+1)
			}
		case reflect.Slice, reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), depth+1)
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Value(), depth+1)
			}
		}
	}
	walk(reflect.ValueOf(v), 0)
	return out
}

var secretType = reflect.TypeFor[Secret]()

// holdsSecret caches mayHoldSecret per type.
var holdsSecret sync.Map // reflect.Type → bool

// mayHoldSecret reports whether a value of type t can reach a Secret (an
// interface always may).
func mayHoldSecret(t reflect.Type) bool {
	if v, ok := holdsSecret.Load(t); ok {
		return v.(bool)
	}
	r := computeHoldsSecret(t, map[reflect.Type]bool{})
	holdsSecret.Store(t, r) // only exact answers are cached: see below
	return r
}

// computeHoldsSecret answers for t; a type met again inside its own
// answer (a recursive type) counts as false there, since that path leads
// nowhere new, which is why nested answers are not cached.
func computeHoldsSecret(t reflect.Type, visiting map[reflect.Type]bool) bool {
	if v, ok := holdsSecret.Load(t); ok {
		return v.(bool)
	}
	if visiting[t] {
		return false
	}
	visiting[t] = true
	defer delete(visiting, t)
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		return computeHoldsSecret(t.Elem(), visiting)
	case reflect.Struct:
		if t == secretType {
			return true
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if computeHoldsSecret(f.Type, visiting) {
				return true
			}
		}
	}
	return false
}

// The LogValue of every type that holds a Secret: its %+v, where each
// Secret prints redacted. Without one, slog's JSON handler would marshal
// the value, and the wire form carries the secret.

// LogValue prints the params for slog with the token redacted.
func (p GitHubRepositoryResourceParams) LogValue() slog.Value { return logRedacted(p) }

// LogValue prints the params for slog with the repository tokens redacted.
func (p SessionCreateParams) LogValue() slog.Value { return logRedacted(p) }

// LogValue prints the params for slog with the token redacted.
func (p SessionResourceUpdateParams) LogValue() slog.Value { return logRedacted(p) }

// LogValue prints the work item for slog with its secret redacted.
func (w Work) LogValue() slog.Value { return logRedacted(w) }

// LogValue prints the credentials for slog with the token redacted.
func (w WorkSecret) LogValue() slog.Value { return logRedacted(w) }

// LogValue prints the update for slog as fmt does (a Secret inside
// redacted).
func (u Update[T]) LogValue() slog.Value { return logRedacted(u) }

// LogValue prints the servers for slog with their tokens redacted.
func (s MCPServers) LogValue() slog.Value { return logRedacted(s) }

// LogValue prints the params for slog with the MCP servers' tokens
// redacted.
func (p MessageCreateParams) LogValue() slog.Value { return logRedacted(p) }

// LogValue prints the params for slog with the MCP servers' tokens
// redacted.
func (p MessageCountTokensParams) LogValue() slog.Value { return logRedacted(p) }

// LogValue prints the request for slog with the MCP servers' tokens
// redacted.
func (r BatchRequest) LogValue() slog.Value { return logRedacted(r) }

// LogValue prints the params for slog with the MCP servers' tokens
// redacted.
func (p BatchCreateParams) LogValue() slog.Value { return logRedacted(p) }
