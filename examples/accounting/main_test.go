package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestRun runs the example against mmstest with a priority commitment of
// 40 input tokens a minute on a frozen clock: the first two replies (14
// input tokens each at 1.1, 16 drawn) are served at the priority tier, the
// third (8 left) at standard.
func TestRun(t *testing.T) {
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }), mmstest.WithPriorityCommitment(
		mmstest.PriorityCommitment{Model: "mms-large-1", InputTokensPerMinute: 40, OutputTokensPerMinute: 100, Model46OrLater: true}))
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	p := mms.PriorityParams{Geo: "us", Model46OrLater: true}
	if err := run(context.Background(), client, "mms-large-1", p, []string{"a", "b", "c"}, &out); err != nil {
		t.Fatal(err)
	}
	// Each reply: 14 input tokens (42e-6), 3 output (45e-6).
	want := "a: priority tier, 14 in / 3 out tokens, cost 0.000087, burned 18.7 priority tokens (15.4 in, 3.3 out)\n" +
		"b: priority tier, 14 in / 3 out tokens, cost 0.000087, burned 18.7 priority tokens (15.4 in, 3.3 out)\n" +
		"c: standard tier, 14 in / 3 out tokens, cost 0.000087\n" +
		"total: 37.4 priority tokens burned, cost 0.000261\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"priority tier", "total: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
