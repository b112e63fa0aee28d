package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"

	"github.com/stretchr/testify/require"
)

type weatherIn struct {
	City string `json:"city" description:"The city"`
}

type weatherOut struct {
	City  string  `json:"city"`
	TempC float64 `json:"temp_c"`
}

type convertIn struct {
	Amount float64 `json:"amount"`
	From   string  `json:"from" enum:"EUR,USD"`
}

type lookupIn struct {
	Key string `json:"key"`
}

// rendezvous makes n calls wait for each other: each returns only once all
// n have started, or fails when ctx ends first. Tools that meet prove the
// runner runs a reply's calls in parallel without timing anything.
type rendezvous struct {
	once sync.Once
	n    int
	mu   sync.Mutex
	in   int
	all  chan struct{}
}

func (r *rendezvous) meet(ctx context.Context) error {
	r.once.Do(func() { r.all = make(chan struct{}) })
	r.mu.Lock()
	if r.in++; r.in == r.n {
		close(r.all)
	}
	r.mu.Unlock()
	select {
	case <-r.all:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the calls did not run in parallel: %w", ctx.Err())
	}
}

// threeTools returns the weather tool (answers), the convert tool (fails)
// and the lookup tool (panics); weather and convert meet at rv.
func threeTools(rv *rendezvous) []mms.RunnableTool {
	weather := mms.NewTool("get_weather", "Weather now", func(ctx context.Context, in weatherIn) (weatherOut, error) {
		if err := rv.meet(ctx); err != nil {
			return weatherOut{}, err
		}
		return weatherOut{City: in.City, TempC: 18.5}, nil
	})
	convert := mms.NewTool("convert", "Convert money", func(ctx context.Context, in convertIn) (string, error) {
		if err := rv.meet(ctx); err != nil {
			return "", err
		}
		return "", errors.New("the rates service is down")
	})
	lookup := mms.NewTool("lookup", "Look a key up", func(ctx context.Context, in lookupIn) (string, error) {
		panic("lookup table missing")
	})
	return []mms.RunnableTool{weather, convert, lookup}
}

func runnerParams(tools ...mms.Tool) mms.MessageCreateParams {
	return mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 1024,
		Messages: []mms.MessageParam{mms.UserText("Weather in Paris, 10 EUR in USD, and look up k1")},
		Tools:    tools,
	}
}

// requestBody decodes the JSON body of a logged request.
func requestBody(t *testing.T, r mmstest.Request) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.Path, err)
	}
	return m
}

// messageRequests returns the logged POST /v1/messages requests.
func messageRequests(srv *mmstest.Server) []mmstest.Request {
	var out []mmstest.Request
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Path == "/v1/messages" {
			out = append(out, r)
		}
	}
	return out
}

// toolNames lists the names of a request body's tools.
func toolNames(t *testing.T, body map[string]json.RawMessage) []string {
	t.Helper()
	var tools []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(body["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
	}
	return names
}

// TestToolRunnerThreeTools is the "must show": three tools called
// in parallel (one answers, one fails, one panics), a pause_turn, a
// server tool left in place, streaming and not; the history the runner
// returns goes back to the fake without a validation error.
func TestToolRunnerThreeTools(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			client, srv := fakeclient.New(t)
			srv.Script(
				mmstest.Turn{ToolCalls: []mmstest.ToolCall{
					{Name: "get_weather", Input: `{"city":"Paris"}`},
					{Name: "convert", Input: `{"amount":10,"from":"EUR"}`},
					{Name: "lookup", Input: `{"key":"k1"}`},
				}},
				mmstest.Turn{PauseTurn: true},
				mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Oslo"}`}}},
				mmstest.Turn{Text: "Paris is 18.5°C; the rates service is down."},
			)
			rv := &rendezvous{n: 2}
			runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
				Params:      runnerParams(mms.WebSearchTool{Version: mms.WebSearch20250305}),
				Tools:       threeTools(rv),
				ToolTimeout: 10 * time.Second,
			})
			var turns []*mms.ToolTurn
			events := 0
			if stream {
				for ev, err := range runner.Stream(context.Background()) {
					require.NoError(t, err)
					if ev.Turn != nil {
						turns = append(turns, ev.Turn)
					} else {
						events++
					}
				}
				if events == 0 {
					t.Error("Stream yielded no stream events")
				}
			} else {
				for turn, err := range runner.Turns(context.Background()) {
					require.NoError(t, err)
					turns = append(turns, turn)
				}
			}
			if len(turns) != 4 {
				t.Fatalf("%d turns, want 4", len(turns))
			}
			stops := []mms.StopReason{}
			for _, turn := range turns {
				stops = append(stops, turn.Message.StopReason)
			}
			want := []mms.StopReason{mms.StopReasonToolUse, mms.StopReasonPauseTurn, mms.StopReasonToolUse, mms.StopReasonEndTurn}
			if diff := cmp.Diff(want, stops); diff != "" {
				t.Errorf("stop reasons (-want +got):\n%s", diff)
			}

			first := turns[0].Calls
			if len(first) != 3 {
				t.Fatalf("first turn answered %d calls, want 3", len(first))
			}
			checkResult(t, first[0], false, `{"city":"Paris","temp_c":18.5}`)
			checkResult(t, first[1], true, "the rates service is down")
			checkResult(t, first[2], true, "the tool panicked: lookup table missing")
			var panicErr *mms.ToolPanicError
			if !errors.As(first[2].Err, &panicErr) || len(panicErr.Stack) == 0 {
				t.Errorf("panic call Err = %v, want a *ToolPanicError with its stack", first[2].Err)
			}
			if runner.Message().Text() != "Paris is 18.5°C; the rates service is down." {
				t.Errorf("final text %q", runner.Message().Text())
			}

			// Every request kept the server tool first and appended the
			// runner's tools.
			reqs := messageRequests(srv)
			if len(reqs) != 4 {
				t.Fatalf("%d requests, want 4", len(reqs))
			}
			for i, r := range reqs {
				got := toolNames(t, requestBody(t, r))
				if diff := cmp.Diff([]string{"web_search", "get_weather", "convert", "lookup"}, got); diff != "" {
					t.Errorf("request %d tools (-want +got):\n%s", i, diff)
				}
			}

			// The history: the prompt, four replies, two turns of results;
			// the fake takes it back.
			history := runner.Messages()
			if len(history) != 7 {
				t.Fatalf("history has %d turns, want 7", len(history))
			}
			next := runnerParams(mms.WebSearchTool{Version: mms.WebSearch20250305})
			for _, tl := range threeTools(rv) {
				def, err := tl.Definition()
				require.NoError(t, err)
				next.Tools = append(next.Tools, def)
			}
			next.Messages = append(history, mms.UserText("Thanks"))
			if _, err := client.Messages.Create(context.Background(), next); err != nil {
				t.Fatalf("sending the runner's history back: %v", err)
			}
		})
	}
}

// checkResult checks a call's result: its error flag and its text.
func checkResult(t *testing.T, c mms.ToolCall, isError bool, text string) {
	t.Helper()
	gotErr := c.Result.IsError != nil && *c.Result.IsError
	if gotErr != isError || c.Result.ToolUseID != c.Use.ID {
		t.Errorf("%s: is_error %v, tool_use_id %q; want %v, %q", c.Use.Name, gotErr, c.Result.ToolUseID, isError, c.Use.ID)
	}
	var got []string
	for _, b := range c.Result.Content {
		if tb, ok := b.(mms.TextBlock); ok {
			got = append(got, tb.Text)
		}
	}
	if strings.Join(got, "") != text {
		t.Errorf("%s: result %q, want %q", c.Use.Name, strings.Join(got, ""), text)
	}
}

func TestToolRunnerHooks(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{
			{Name: "get_weather", Input: `{"city":"Paris"}`},
			{Name: "get_weather", Input: `{"city":"Rome"}`},
			{Name: "calendar", Input: `{}`},
			{Name: "get_weather", Input: `{"city":"Oslo"}`},
		}},
		mmstest.Turn{Text: "ok"},
	)
	ran := map[string]bool{}
	var mu sync.Mutex
	weather := mms.NewTool("get_weather", "Weather now", func(ctx context.Context, in weatherIn) (string, error) {
		mu.Lock()
		ran[in.City] = true
		mu.Unlock()
		return "sunny in " + in.City, nil
	})
	// calendar is a client tool the program answers itself (BeforeTool).
	calendar := mms.CustomTool{Name: "calendar", InputSchema: mms.InputSchema(`{"type":"object"}`)}
	var after []string
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: runnerParams(calendar),
		Tools:  []mms.RunnableTool{weather},
		BeforeTool: func(ctx context.Context, call mms.ToolUseBlock) (mms.ToolVerdict, error) {
			switch {
			case call.Name == "calendar":
				return mms.AnswerTool(mms.TextBlock{Text: "free all day"}), nil
			case strings.Contains(string(call.Input), "Rome"):
				return mms.DenyTool("no weather for Rome today"), nil
			case strings.Contains(string(call.Input), "Oslo"):
				return mms.ToolVerdict{Deny: true}, nil
			}
			return mms.ToolVerdict{}, nil
		},
		AfterTool: func(ctx context.Context, call *mms.ToolCall) error {
			after = append(after, call.Use.Name)
			if call.Ran {
				call.Result = mms.ToolResult(call.Use.ID, "[checked] sunny", false)
			}
			return nil
		},
	})
	var first *mms.ToolTurn
	for turn, err := range runner.Turns(context.Background()) {
		require.NoError(t, err)
		if first == nil {
			first = turn
		}
	}
	calls := first.Calls
	checkResult(t, calls[0], false, "[checked] sunny")
	checkResult(t, calls[1], true, "no weather for Rome today")
	checkResult(t, calls[2], false, "free all day")
	checkResult(t, calls[3], true, "the program denied this tool call")
	if diff := cmp.Diff(map[string]bool{"Paris": true}, ran); diff != "" {
		t.Errorf("tools run (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"get_weather", "get_weather", "calendar", "get_weather"}, after); diff != "" {
		t.Errorf("AfterTool calls (-want +got):\n%s", diff)
	}
	if !calls[0].Ran || calls[1].Ran || calls[2].Ran || calls[3].Ran {
		t.Errorf("Ran = %v %v %v %v", calls[0].Ran, calls[1].Ran, calls[2].Ran, calls[3].Ran)
	}
}

// A hook's error stops the run before the results are sent.
func TestToolRunnerHookErrorStops(t *testing.T) {
	for _, hook := range []string{"before", "after"} {
		t.Run(hook, func(t *testing.T) {
			client, srv := fakeclient.New(t)
			srv.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}})
			boom := errors.New("policy store unreachable")
			p := mms.ToolRunnerParams{
				Params: runnerParams(),
				Tools: []mms.RunnableTool{mms.NewTool("get_weather", "", func(ctx context.Context, in weatherIn) (string, error) {
					return "sunny", nil
				})},
			}
			if hook == "before" {
				p.BeforeTool = func(context.Context, mms.ToolUseBlock) (mms.ToolVerdict, error) { return mms.ToolVerdict{}, boom }
			} else {
				p.AfterTool = func(context.Context, *mms.ToolCall) error { return boom }
			}
			_, err := client.Messages.NewToolRunner(p).Run(context.Background())
			if !errors.Is(err, boom) {
				t.Fatalf("err = %v, want the hook's error", err)
			}
			if n := len(messageRequests(srv)); n != 1 {
				t.Errorf("%d requests sent, want 1", n)
			}
		})
	}
}

// Input that does not match the schema is answered as an error naming the
// member, without running the tool; the model's corrected call runs.
func TestToolRunnerInvalidInput(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "convert", Input: `{"amount":"ten","from":"EUR"}`}}},
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "convert", Input: `{"amount":10,"from":"EUR"}`}}},
		mmstest.Turn{Text: "done"},
	)
	var got []float64
	convert := mms.NewTool("convert", "", func(ctx context.Context, in convertIn) (string, error) {
		got = append(got, in.Amount)
		return "11 USD", nil
	})
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams(), Tools: []mms.RunnableTool{convert}})
	var calls []mms.ToolCall
	for turn, err := range runner.Turns(context.Background()) {
		require.NoError(t, err)
		calls = append(calls, turn.Calls...)
	}
	var inputErr *mms.ToolInputError
	if len(calls) != 2 || !errors.As(calls[0].Err, &inputErr) {
		t.Fatalf("calls %+v: want a *ToolInputError first", calls)
	}
	text := calls[0].Result.Content[0].(mms.TextBlock).Text
	if !strings.Contains(text, "amount") || calls[0].Ran {
		t.Errorf("invalid input result %q (ran %v): want it to name the member, the tool not run", text, calls[0].Ran)
	}
	checkResult(t, calls[1], false, "11 USD")
	if diff := cmp.Diff([]float64{10}, got); diff != "" {
		t.Errorf("tool inputs (-want +got):\n%s", diff)
	}
}

// MaxIterations ends the run with ErrMaxIterations, the last calls
// answered, so the history stays sendable.
func TestToolRunnerMaxIterations(t *testing.T) {
	client, srv := fakeclient.New(t)
	call := mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}}
	srv.Script(call, call, call)
	weather := mms.NewTool("get_weather", "", func(ctx context.Context, in weatherIn) (string, error) { return "sunny", nil })
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams(), Tools: []mms.RunnableTool{weather}, MaxIterations: 2})
	msg, err := runner.Run(context.Background())
	if !errors.Is(err, mms.ErrMaxIterations) || msg == nil || msg.StopReason != mms.StopReasonToolUse {
		t.Fatalf("Run = %v, %v; want the last reply and ErrMaxIterations", msg, err)
	}
	if n := len(messageRequests(srv)); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	h := runner.Messages()
	if last := h[len(h)-1]; last.Role != mms.RoleUser {
		t.Errorf("history ends with a %s turn, want the user's results", last.Role)
	}
}

// A tool that outlives ToolTimeout is answered as an error.
func TestToolRunnerToolTimeout(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "slow", Input: `{"key":"a"}`}}}, mmstest.Turn{Text: "ok"})
	slow := mms.NewTool("slow", "", func(ctx context.Context, in lookupIn) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	})
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams(), Tools: []mms.RunnableTool{slow}, ToolTimeout: time.Millisecond})
	var calls []mms.ToolCall
	for turn, err := range runner.Turns(context.Background()) {
		require.NoError(t, err)
		calls = append(calls, turn.Calls...)
	}
	if len(calls) != 1 || !errors.Is(calls[0].Err, context.DeadlineExceeded) {
		t.Fatalf("calls %+v: want one timed-out call", calls)
	}
}

// The container a reply names is the container of the next request, also
// when the program broke out of the loop and resumed it.
func TestToolRunnerCarriesContainer(t *testing.T) {
	for _, resume := range []bool{false, true} {
		t.Run(fmt.Sprintf("resume=%v", resume), func(t *testing.T) {
			client, srv := fakeclient.New(t)
			srv.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}}, mmstest.Turn{Text: "ok"})
			weather := mms.NewTool("get_weather", "", func(ctx context.Context, in weatherIn) (string, error) { return "sunny", nil })
			runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{
				Params: runnerParams(mms.CodeExecutionTool{Version: mms.CodeExecution20250825}),
				Tools:  []mms.RunnableTool{weather},
			})
			var ids []string
			for range 2 {
				for turn, err := range runner.Turns(context.Background()) {
					require.NoError(t, err)
					if turn.Message.Container == nil {
						t.Fatal("reply without a container")
					}
					ids = append(ids, turn.Message.Container.ID)
					if resume {
						break
					}
				}
			}
			reqs := messageRequests(srv)
			if len(reqs) != 2 || len(ids) != 2 {
				t.Fatalf("%d requests, %d turns", len(reqs), len(ids))
			}
			if _, ok := requestBody(t, reqs[0])["container"]; ok {
				t.Error("the first request named a container")
			}
			var sent string // the id alone: the string form
			if err := json.Unmarshal(requestBody(t, reqs[1])["container"], &sent); err != nil {
				t.Fatal(err)
			}
			if sent != ids[0] || ids[1] != ids[0] {
				t.Errorf("second request's container %q, replies' %v", sent, ids)
			}
		})
	}
}

// Bad runner input is refused before anything is sent.
func TestToolRunnerRefusesBeforeSending(t *testing.T) {
	type badIn struct {
		F func() `json:"f"`
	}
	ok := mms.NewTool("get_weather", "", func(ctx context.Context, in weatherIn) (string, error) { return "", nil })
	tests := []struct {
		name string
		p    mms.ToolRunnerParams
		want string
	}{
		{"schema", mms.ToolRunnerParams{Tools: []mms.RunnableTool{mms.NewTool("bad", "", func(context.Context, badIn) (string, error) { return "", nil })}}, "Tools[0]"},
		{"not an object", mms.ToolRunnerParams{Tools: []mms.RunnableTool{mms.NewTool("bad", "", func(context.Context, string) (string, error) { return "", nil })}}, "struct or a map"},
		{"nil tool", mms.ToolRunnerParams{Tools: []mms.RunnableTool{nil}}, "Tools[0]"},
		{"nil func", mms.ToolRunnerParams{Tools: []mms.RunnableTool{&mms.FuncTool[weatherIn, string]{Tool: mms.CustomTool{Name: "f", InputSchema: mms.InputSchema(`{"type":"object"}`)}}}}, "Func"},
		{"duplicate", mms.ToolRunnerParams{Tools: []mms.RunnableTool{ok, ok}}, "already used"},
		{"duplicate of a param tool", mms.ToolRunnerParams{Params: runnerParams(mms.CustomTool{Name: "get_weather", InputSchema: mms.InputSchema(`{"type":"object"}`)}), Tools: []mms.RunnableTool{ok}}, "already used"},
		{"negative iterations", mms.ToolRunnerParams{MaxIterations: -1}, "MaxIterations"},
		{"negative concurrency", mms.ToolRunnerParams{MaxConcurrency: -1}, "MaxConcurrency"},
		{"negative timeout", mms.ToolRunnerParams{ToolTimeout: -1}, "ToolTimeout"},
		{"bad params", mms.ToolRunnerParams{Params: mms.MessageCreateParams{Model: "mms-large-1"}}, "messages"},
	}
	client, srv := fakeclient.New(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.p.Params.Model == "" {
				tt.p.Params = runnerParams(tt.p.Params.Tools...)
			}
			_, err := client.Messages.NewToolRunner(tt.p).Run(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to mention %q", err, tt.want)
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// Breaking out stops the runner; calling Turns again continues it, with
// the history the program set.
func TestToolRunnerResume(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.Script(mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}}, mmstest.Turn{Text: "ok"})
	weather := mms.NewTool("get_weather", "", func(ctx context.Context, in weatherIn) (string, error) { return "sunny", nil })
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams(), Tools: []mms.RunnableTool{weather}})
	for _, err := range runner.Turns(context.Background()) {
		require.NoError(t, err)
		break
	}
	// Edit the history: the results turn gets a note.
	h := runner.Messages()
	last := &h[len(h)-1]
	last.Content = append(last.Content, mms.TextBlock{Text: "Answer in one word."})
	runner.SetMessages(h)
	msg, err := runner.Run(context.Background())
	if err != nil || msg.Text() != "ok" {
		t.Fatalf("Run = %v, %v", msg, err)
	}
	reqs := messageRequests(srv)
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "Answer in one word.") {
		t.Errorf("%d requests; the second did not carry the edited history", len(reqs))
	}
	// A finished runner sends nothing more.
	for range runner.Turns(context.Background()) {
		t.Error("a finished runner yielded a turn")
	}
}

// A stream broken off in the middle of a reply is sent again by the next
// call of Stream.
func TestToolRunnerStreamBreakResends(t *testing.T) {
	client, srv := fakeclient.New(t)
	runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams()})
	for ev, err := range runner.Stream(context.Background()) {
		require.NoError(t, err)
		if ev.Event != nil {
			break
		}
	}
	if runner.Message() != nil || len(runner.Messages()) != 1 {
		t.Fatalf("a broken-off reply was kept")
	}
	var turns int
	for ev, err := range runner.Stream(context.Background()) {
		require.NoError(t, err)
		if ev.Turn != nil {
			turns++
		}
	}
	if turns != 1 || len(messageRequests(srv)) != 2 || len(runner.Messages()) != 2 {
		t.Errorf("turns %d, requests %d, history %d", turns, len(messageRequests(srv)), len(runner.Messages()))
	}
}

// A cancelled context stops the run with its error.
func TestToolRunnerContext(t *testing.T) {
	client, _ := fakeclient.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams()}).Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

// A request error ends the run with the *mms.Error.
func TestToolRunnerAPIError(t *testing.T) {
	client, srv := fakeclient.New(t)
	srv.FailNext("/v1/messages", 400)
	_, err := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams()}).Run(context.Background())
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("err = %v", err)
	}
}

// MaxConcurrency bounds the calls of one reply running at once.
func TestToolRunnerMaxConcurrency(t *testing.T) {
	for _, limit := range []int{1, 2} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			client, srv := fakeclient.New(t)
			var calls []mmstest.ToolCall
			for _, k := range []string{"a", "b", "c", "d"} {
				calls = append(calls, mmstest.ToolCall{Name: "lookup", Input: `{"key":"` + k + `"}`})
			}
			srv.Script(mmstest.Turn{ToolCalls: calls}, mmstest.Turn{Text: "ok"})
			var mu sync.Mutex
			running, most := 0, 0
			lookup := mms.NewTool("lookup", "", func(ctx context.Context, in lookupIn) (string, error) {
				mu.Lock()
				running++
				most = max(most, running)
				mu.Unlock()
				for range 100 { // time for the other calls to start, if the bound let them
					runtime.Gosched()
				}
				mu.Lock()
				running--
				mu.Unlock()
				return in.Key, nil
			})
			runner := client.Messages.NewToolRunner(mms.ToolRunnerParams{Params: runnerParams(), Tools: []mms.RunnableTool{lookup}, MaxConcurrency: limit})
			if _, err := runner.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if most > limit || most == 0 {
				t.Errorf("%d calls ran at once, limit %d", most, limit)
			}
		})
	}
}
