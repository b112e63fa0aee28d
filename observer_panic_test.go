package mms_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
	"github.com/mms-sdk/mms-go/observe"
	"github.com/mms-sdk/mms-go/option"
)

// panickyObserver records operations like opRecorder but panics in the
// method named by in ("Start", "Attempt", "Result" or "End") of the
// operations of one kind.
type panickyObserver struct {
	opRecorder
	kind observe.Kind
	in   string
}

func (p *panickyObserver) Start(ctx context.Context, op observe.Op) (context.Context, observe.Operation) {
	if op.Kind == p.kind && p.in == "Start" {
		panic("a bug in the observer")
	}
	ctx, o := p.opRecorder.Start(ctx, op)
	if op.Kind == p.kind {
		return ctx, panickyOp{o, p.in}
	}
	return ctx, o
}

type panickyOp struct {
	observe.Operation
	in string
}

func (o panickyOp) Attempt(a observe.Attempt) { o.maybe("Attempt"); o.Operation.Attempt(a) }
func (o panickyOp) Result(r observe.Result)   { o.maybe("Result"); o.Operation.Result(r) }
func (o panickyOp) End(err error)             { o.maybe("End"); o.Operation.End(err) }
func (o panickyOp) maybe(in string) {
	if in == o.in {
		panic("a bug in the observer")
	}
}

// TestObserverPanicContained: a panic in an observer, on the tool
// runner's goroutine running a tool or on the caller's, is contained and
// logged as the observer hook's panic; the call succeeds and the
// operation is observed no further.
func TestObserverPanicContained(t *testing.T) {
	tests := []struct {
		kind observe.Kind
		in   string
	}{
		{observe.ExecuteTool, "Start"},
		{observe.ExecuteTool, "Result"},
		{observe.ExecuteTool, "End"},
		{observe.Chat, "Attempt"},
		{observe.AgentTurn, "End"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+"/"+tt.in, func(t *testing.T) {
			var mu sync.Mutex
			var logged bytes.Buffer
			logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logged}, nil))
			obs := &panickyObserver{kind: tt.kind, in: tt.in}
			client, srv := fakeclient.New(t)
			srv.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}}, mmstest.Turn{Text: "ok"})
			weather := mms.NewTool("get_weather", "", func(ctx context.Context, in weatherIn) (string, error) { return "sunny", nil })
			runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams(), Tools: []mms.RunnableTool{weather}},
				option.WithObserver(obs), option.WithLogger(logger))
			msg, err := runner.Run(context.Background())
			if err != nil || msg == nil {
				t.Fatalf("Run: %v, %v", msg, err)
			}
			mu.Lock()
			defer mu.Unlock()
			if n := strings.Count(logged.String(), "the observer hook panicked: a bug in the observer"); n == 0 {
				t.Errorf("log %q does not report the panic", logged.String())
			}
			if !strings.Contains(logged.String(), "stack=") {
				t.Errorf("log %q has no stack", logged.String())
			}
			for _, o := range obs.ops {
				if o.op.Kind == tt.kind && tt.in != "End" && o.ended != 0 {
					t.Errorf("%s %s: ended after its observer panicked", o.op.Kind, o.op.Name)
				}
			}
		})
	}
}

// lockedWriter serializes writes to a buffer read by the test.
type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}
