package main

import (
	"bytes"
	"context"
	"testing"

	"go.uber.org/goleak"
)

// TestRun runs the example, so it cannot rot.
func TestRun(t *testing.T) {
	defer goleak.VerifyNone(t)
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
