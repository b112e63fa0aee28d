package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// TestSecretNeverPrinted formats a struct holding a Secret with every
// verb a log line might use, and logs it with slog: the value never shows.
// The wire form carries it.
func TestSecretNeverPrinted(t *testing.T) {
	type params struct {
		Token Secret `json:"token"`
	}
	const value = "sk-very-secret-value"
	p := params{Token: NewSecret(value)}
	all := []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%10s", "%d"}
	for _, format := range all {
		if got := fmt.Sprintf(format, p); strings.Contains(got, value) || strings.Contains(got, fmt.Sprintf("%x", value)) {
			t.Errorf("%s shows the secret: %s", format, got)
		}
		if got := fmt.Sprintf(format, p.Token); strings.Contains(got, "sk-") {
			t.Errorf("%s of the Secret shows it: %s", format, got)
		}
	}
	// Reached through pointers, slices, maps and interfaces, with any
	// verb: the value sits behind a pointer fmt never follows
	// (TestNoVerbShowsASecret covers %p and %w too).
	type outer struct {
		Inner *params
		Any   any
		List  []*params
		ByKey map[string]*Secret
	}
	tok := p.Token
	nested := outer{Inner: &p, Any: &p, List: []*params{&p}, ByKey: map[string]*Secret{"k": &tok}}
	w := Work{Secret: &tok}
	tests := []struct {
		v       any
		formats []string
	}{
		{&p, all}, {&tok, all}, {&w, all}, {w, all},
		{WorkSecret{SessionsToken: NewSecret(value)}, all}, {&WorkSecret{SessionsToken: NewSecret(value)}, all}, {Set(tok), all},
		{StaticBearerAuthParams{Token: NewSecret(value)}, all}, {&MCPOAuthAuthParams{AccessToken: NewSecret(value)}, all},
		{nested, all}, {&nested, all},
	}
	for _, tt := range tests {
		for _, format := range tt.formats {
			if got := fmt.Sprintf(format, tt.v); strings.Contains(got, value) || strings.Contains(got, fmt.Sprintf("%x", value)) {
				t.Errorf("%s of %T shows the secret: %s", format, tt.v, got)
			}
		}
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("call", "token", p.Token, "params", p)
	if strings.Contains(buf.String(), value) {
		t.Errorf("slog shows the secret: %s", buf.String())
	}
	for _, marshal := range []func(any) ([]byte, error){json.Marshal, codec.MarshalRequest} {
		got, err := marshal(p)
		require.NoError(t, err)
		if string(got) != `{"token":"sk-very-secret-value"}` {
			t.Errorf("wire form %s", got)
		}
	}
	if NewSecret("").String() != "" || fmt.Sprint(NewSecret("")) != "" {
		t.Error("an empty secret prints something")
	}
}
