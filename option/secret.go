package option

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// Secret is a write-only credential: a bearer token a [TokenSource]
// returns, and (as mms.Secret, the same type) every token, client secret
// and secret value of a request. It goes on the wire as the JSON string
// it holds; fmt and slog print "<redacted>" in its place ("" when it is
// empty). Make one with [NewSecret] (or mms.NewSecret) and read it back
// with [Secret.Reveal].
//
// The value sits behind an unexported pointer, which is what keeps it out
// of every fmt verb: fmt prints a pointer inside a struct as an address
// and never follows it, even on its bad-verb path (%p, %w outside
// fmt.Errorf, a verb that does not suit the type), where it prints values
// by reflection without calling String or Format. So a struct holding a
// Secret, at any depth and behind any pointer, prints no secret with any
// verb. Compare secrets with [Secret.Equal]: == compares the pointers.
type Secret struct {
	v *string
}

// NewSecret returns a Secret holding v; NewSecret("") is the zero Secret.
func NewSecret(v string) Secret {
	if v == "" {
		return Secret{}
	}
	return Secret{v: &v}
}

// Reveal returns the value; "" for the zero Secret.
func (s Secret) Reveal() string {
	if s.v == nil {
		return ""
	}
	return *s.v
}

// IsZero reports whether the secret is empty; an omitzero field holding
// one is left out.
func (s Secret) IsZero() bool { return s.v == nil || *s.v == "" }

// Equal reports whether s and o hold the same value (go-cmp uses it too).
func (s Secret) Equal(o Secret) bool { return s.Reveal() == o.Reveal() }

const redactedSecret = "<redacted>"

// String returns "<redacted>", or "" for an empty secret.
func (s Secret) String() string {
	if s.IsZero() {
		return ""
	}
	return redactedSecret
}

// GoString is String quoted, for %#v.
func (s Secret) GoString() string { return fmt.Sprintf("%q", s.String()) }

// Format prints String for every verb (quoted for %q and %#v), so no verb
// that reaches it shows the value.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' || (verb == 'v' && f.Flag('#')) {
		fmt.Fprintf(f, "%q", s.String())
		return
	}
	io.WriteString(f, s.String())
}

// LogValue is String, for slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalJSON writes the value as a JSON string (without HTML escaping,
// as the SDK's request encoder writes strings).
func (s Secret) MarshalJSON() ([]byte, error) { return codec.AppendQuoted(nil, s.Reveal()), nil }

// UnmarshalJSON reads a JSON string; null leaves the zero Secret.
func (s *Secret) UnmarshalJSON(data []byte) error {
	var v *string
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("mms: a secret must be a JSON string: %w", errNoValue(err))
	}
	if v == nil {
		*s = Secret{}
		return nil
	}
	*s = NewSecret(*v)
	return nil
}

// errNoValue keeps only the kind of a decoding error: encoding/json's
// messages may quote the input, which is a secret.
func errNoValue(err error) error {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return fmt.Errorf("got a JSON %s", te.Value)
	}
	return errors.New("malformed JSON")
}
