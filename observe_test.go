package mms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
	"github.com/mms-sdk/mms-go/observe"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// opRecorder is an Observer that keeps every operation it saw, with its
// parent (the operation the starting context ran under).
type opRecorder struct {
	mu  sync.Mutex
	ops []*recordedOp
}

type recordedOp struct {
	mu       sync.Mutex
	op       observe.Op
	parent   *recordedOp
	attempts []observe.Attempt
	events   []string
	results  []observe.Result
	ended    int
	err      error
}

type recordedKey struct{}

func (r *opRecorder) Start(ctx context.Context, op observe.Op) (context.Context, observe.Operation) {
	o := &recordedOp{op: op}
	o.parent, _ = ctx.Value(recordedKey{}).(*recordedOp)
	r.mu.Lock()
	r.ops = append(r.ops, o)
	r.mu.Unlock()
	return context.WithValue(ctx, recordedKey{}, o), o
}

func (o *recordedOp) Attempt(a observe.Attempt) {
	o.mu.Lock()
	o.attempts = append(o.attempts, a)
	o.mu.Unlock()
}
func (o *recordedOp) Event(name string) {
	o.mu.Lock()
	o.events = append(o.events, name)
	o.mu.Unlock()
}
func (o *recordedOp) Result(r observe.Result) {
	o.mu.Lock()
	o.results = append(o.results, r)
	o.mu.Unlock()
}
func (o *recordedOp) End(err error) { o.mu.Lock(); o.ended++; o.err = err; o.mu.Unlock() }

// only returns the single operation recorded, failing otherwise.
func (r *opRecorder) only(t *testing.T) *recordedOp {
	t.Helper()
	if len(r.ops) != 1 {
		var names []string
		for _, o := range r.ops {
			names = append(names, string(o.op.Kind)+" "+o.op.Name)
		}
		t.Fatalf("%d operations, want 1: %v", len(r.ops), names)
	}
	return r.ops[0]
}

func (o *recordedOp) statuses() []int {
	var s []int
	for _, a := range o.attempts {
		s = append(s, a.StatusCode)
	}
	return s
}

func observedClient(t *testing.T) (*mms.Client, *mmstest.Server, *opRecorder) {
	rec := &opRecorder{}
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	client, err := mms.NewClient(append(srv.ClientOptions(), option.WithObserver(rec))...)
	require.NoError(t, err)
	return client, srv, rec
}

func TestObserveCreate(t *testing.T) {
	client, srv, rec := observedClient(t)
	p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 300, Temperature: mms.Ptr(0.0), TopK: mms.Ptr(5),
		StopSequences: []string{"END"}, Messages: []mms.MessageParam{mms.UserText("Hi")}}
	srv.FailNext("/v1/messages", 529)
	msg, err := client.Messages.Create(context.Background(), p)
	require.NoError(t, err)
	o := rec.only(t)
	if o.op.Kind != observe.Chat || o.op.Name != "Messages.Create" || o.op.Model != "mms-large-1" || o.op.MaxTokens != 300 ||
		*o.op.Temperature != 0 || *o.op.TopK != 5 || o.op.Stream || o.op.Request == nil {
		t.Errorf("op %+v", o.op)
	}
	if diff := cmp.Diff([]int{529, 200}, o.statuses()); diff != "" || !o.attempts[0].Retry || o.attempts[1].Retry ||
		o.attempts[0].Err == nil || o.attempts[1].RequestID == "" || o.attempts[1].Number != 2 {
		t.Errorf("attempts %+v (%s)", o.attempts, diff)
	}
	want := observe.Result{ResponseID: msg.ID, ResponseModel: msg.Model, StopReasons: []string{"end_turn"}, ServiceTier: "standard",
		InferenceGeo: "global", Usage: observe.Usage{InputTokens: msg.Usage.InputTokens, OutputTokens: msg.Usage.OutputTokens}, Response: msg}
	if len(o.results) != 1 || o.ended != 1 || o.err != nil {
		t.Fatalf("results %d, ended %d, err %v", len(o.results), o.ended, o.err)
	}
	if diff := cmp.Diff(want, o.results[0], cmp.Comparer(func(a, b *mms.Message) bool { return a == b })); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
}

// A failed call ends with its error and no result.
func TestObserveFailure(t *testing.T) {
	client, srv, rec := observedClient(t)
	srv.FailNext("/v1/messages", 400)
	_, err := client.Messages.Create(context.Background(), mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 10, Messages: []mms.MessageParam{mms.UserText("Hi")}})
	o := rec.only(t)
	var apiErr *mms.Error
	if !errors.As(o.err, &apiErr) || apiErr.StatusCode != 400 || o.err != err || len(o.results) != 0 || o.ended != 1 {
		t.Errorf("err %v, results %d, ended %d", o.err, len(o.results), o.ended)
	}
}

func TestObserveStream(t *testing.T) {
	client, _, rec := observedClient(t)
	var acc mms.MessageAccumulator
	for ev, err := range client.Messages.Stream(context.Background(), mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 100,
		Messages: []mms.MessageParam{mms.UserText("Stream, please")}}) {
		if err == nil {
			err = acc.Add(ev)
		}
		require.NoError(t, err)
	}
	o := rec.only(t)
	if !o.op.Stream || o.op.Name != "Messages.Stream" || len(o.attempts) != 1 || o.ended != 1 || o.err != nil {
		t.Fatalf("op %+v, %d attempts, ended %d, err %v", o.op, len(o.attempts), o.ended, o.err)
	}
	if o.events[0] != "message_start" || o.events[len(o.events)-1] != "message_stop" || len(o.events) < 5 {
		t.Errorf("events %v", o.events)
	}
	msg := acc.Message()
	if len(o.results) != 1 || o.results[0].ResponseID != msg.ID || o.results[0].Usage.OutputTokens != msg.Usage.OutputTokens ||
		o.results[0].StopReasons[0] != "end_turn" {
		t.Errorf("results %+v", o.results)
	}
}

// A list is one operation with an attempt per page; a single Get, an
// upload and a session stream are operations of their own kinds.
func TestObserveOtherKinds(t *testing.T) {
	client, _, rec := observedClient(t)
	ctx := context.Background()
	n := 0
	for _, err := range client.Models.List(ctx, mms.ModelListParams{Limit: 1}) {
		require.NoError(t, err)
		n++
	}
	if _, err := client.Models.Get(ctx, "mms-large-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Files.Upload(ctx, mms.FileUploadParams{Reader: strings.NewReader("hello"), Filename: "a.txt"}); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, o := range rec.ops {
		kinds = append(kinds, fmt.Sprintf("%s %s %d/%d", o.op.Kind, o.op.Name, len(o.attempts), o.ended))
	}
	want := []string{fmt.Sprintf("list GET /v1/models %d/1", n), "other GET /v1/models/mms-large-1 1/1", "upload POST /v1/files 1/1"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
}

func TestObserveSessionStream(t *testing.T) {
	f := newSessionFake(t)
	ctx := context.Background()
	sess, err := f.c.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentRef{ID: f.agent.ID}, EnvironmentID: f.env,
		InitialEvents: []mms.SessionEventParams{mms.NewUserMessageEvent("hi")}})
	require.NoError(t, err)
	rec := &opRecorder{}
	for _, err := range f.c.Sessions.Events.Stream(ctx, sess.ID, mms.SessionEventStreamParams{IncludeHistory: true}, option.WithObserver(rec)) {
		require.NoError(t, err)
		break
	}
	var stream *recordedOp
	for _, o := range rec.ops {
		if o.op.Kind == observe.SessionStream {
			stream = o
		}
	}
	if stream == nil || len(stream.events) == 0 || stream.ended != 1 || stream.err != nil || len(stream.attempts) != 1 ||
		!strings.HasSuffix(stream.op.Path, "/events/stream") {
		t.Fatalf("session stream op %+v", stream)
	}
}

// A tool-runner turn is the parent of its chat and of its tool runs.
func TestObserveToolRunnerTurn(t *testing.T) {
	rec := &opRecorder{}
	client, srv := fakeclient.New(t)
	srv.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}}, mmstest.Turn{Text: "ok"})
	weather := mms.NewTool("get_weather", "", func(ctx context.Context, in weatherIn) (string, error) { return "sunny", nil })
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams(), Tools: []mms.RunnableTool{weather}}, option.WithObserver(rec))
	if _, err := runner.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var tree []string
	for _, o := range rec.ops {
		parent := "-"
		if o.parent != nil {
			parent = fmt.Sprintf("%s#%d", o.parent.op.Kind, o.parent.op.Iteration)
		}
		tree = append(tree, fmt.Sprintf("%s#%d %s <- %s (%d results, ended %d)", o.op.Kind, o.op.Iteration, o.op.Name, parent, len(o.results), o.ended))
	}
	want := []string{
		"agent_turn#1 ToolRunner.Turn <- - (1 results, ended 1)",
		"chat#0 Messages.Create <- agent_turn#1 (1 results, ended 1)",
		"execute_tool#0 get_weather <- agent_turn#1 (1 results, ended 1)",
		"agent_turn#2 ToolRunner.Turn <- - (1 results, ended 1)",
		"chat#0 Messages.Create <- agent_turn#2 (1 results, ended 1)",
	}
	if diff := cmp.Diff(want, tree); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
}

// A call's observer replaces the client's.
func TestObservePerCall(t *testing.T) {
	client, _, rec := observedClient(t)
	other := &opRecorder{}
	if _, err := client.Models.Get(context.Background(), "mms-large-1", option.WithObserver(other)); err != nil {
		t.Fatal(err)
	}
	if len(rec.ops) != 0 || len(other.ops) != 1 {
		t.Errorf("client observer %d ops, call observer %d", len(rec.ops), len(other.ops))
	}
	if _, err := mms.NewClient(option.WithObserver(nil)); err == nil {
		t.Error("a nil observer was accepted")
	}
}
