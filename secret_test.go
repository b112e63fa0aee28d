package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// TestSecretNeverPrinted formats a struct holding a Secret with every
// verb a log line might use, and logs it with slog: the value never shows.
// The wire form carries it.
func TestSecretNeverPrinted(t *testing.T) {
	type params struct {
		Token Secret `json:"token"`
	}
	const value = "sk-very-secret-value"
	p := params{Token: value}
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%10s", "%d"} {
		if got := fmt.Sprintf(format, p); strings.Contains(got, value) || strings.Contains(got, fmt.Sprintf("%x", value)) {
			t.Errorf("%s shows the secret: %s", format, got)
		}
		if got := fmt.Sprintf(format, p.Token); strings.Contains(got, "sk-") {
			t.Errorf("%s of the Secret shows it: %s", format, got)
		}
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("call", "token", p.Token, "params", p)
	if strings.Contains(buf.String(), value) {
		t.Errorf("slog shows the secret: %s", buf.String())
	}
	for _, marshal := range []func(any) ([]byte, error){json.Marshal, codec.MarshalRequest} {
		got, err := marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != `{"token":"sk-very-secret-value"}` {
			t.Errorf("wire form %s", got)
		}
	}
	if Secret("").String() != "" || fmt.Sprint(Secret("")) != "" {
		t.Error("an empty secret prints something")
	}
}
