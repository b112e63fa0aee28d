package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/exampletest"
)

// TestDemo runs the example against mmstest: every request succeeds while
// the token file rotates, and the renewals exchanged newer identity tokens.
func TestDemo(t *testing.T) {
	var out bytes.Buffer
	if err := demo(context.Background(), &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), "1 model(s)"); n != 6 {
		t.Errorf("%d requests reported:\n%s", n, out.String())
	}
	m := regexp.MustCompile(`(\d+) token exchanges, with identity tokens (.*)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no summary:\n%s", out.String())
	}
	if n, _ := strconv.Atoi(m[1]); n < 2 {
		t.Errorf("%d exchanges, want renewals", n)
	}
	ids := strings.Split(m[2], ", ")
	if ids[0] != "demo-identity-v1" || ids[len(ids)-1] == "demo-identity-v1" {
		t.Errorf("identity tokens %v: the rotated file was not re-read", ids)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"token exchanges"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
