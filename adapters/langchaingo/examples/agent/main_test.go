package main

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRun runs the example against mmstest with the script main uses
// offline.
func TestRun(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_time", Input: `{"__arg1":"UTC"}`}}},
		mmstest.Turn{Text: "It is 12:00 in UTC."},
	)
	var out strings.Builder
	if err := run(context.Background(), client, "mms-large-1", "What time is it in UTC?", &out); err != nil {
		t.Fatal(err)
	}
	want := "You said: What time is it in UTC?\n-> get_time(UTC)\nIt is 12:00 in UTC.\nanswer: It is 12:00 in UTC.\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}
