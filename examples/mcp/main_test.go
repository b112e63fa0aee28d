package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/internal/exampletest"
)

// TestRun runs the example, so it cannot rot.
func TestRun(t *testing.T) {
	defer goleak.VerifyNone(t)
	exampletest.Unconfigured(t)
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `get_weather {"city":"Paris"} -> ok: Paris: 18 °C
get_weather {"city":"Rome"} -> error: no weather station in Rome
Paris is at 18 °C; Rome has no station.
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	if !strings.Contains(out, "Paris is at 18 °C") {
		t.Errorf("stdout:\n%s", out)
	}
}
