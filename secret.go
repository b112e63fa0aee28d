package mms

import (
	"fmt"
	"log/slog"
)

// Secret is a write-only credential in a request: an access or refresh
// token, a client secret, a secret value, a repository's authorization
// token. It goes on the wire as the JSON string it holds, but every fmt
// verb and slog print "<redacted>" in its place (or "" when it is empty),
// so logging a params struct with %v or %+v does not leak it. string(s)
// reads it back.
//
// One case fmt does not cover: a struct of yours holding a pointer to a
// struct that holds a Secret, printed with a verb that does not suit
// pointers (%s, %q, %x, %d). fmt then prints the pointed-to struct by
// reflection without calling any method, so the value shows; print such
// structs with %v or %+v. The SDK's own types hold no such pointer.
type Secret string

const redacted = "<redacted>"

// String returns "<redacted>", or "" for an empty secret.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return redacted
}

// GoString is String, for %#v.
func (s Secret) GoString() string { return fmt.Sprintf("%q", s.String()) }

// Format prints String for every verb, so %s, %v, %q and %x never show
// the value.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' || (verb == 'v' && f.Flag('#')) {
		fmt.Fprintf(f, "%q", s.String())
		return
	}
	fmt.Fprint(f, s.String())
}

// LogValue is String, for slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }
