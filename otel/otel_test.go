package otel

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

const model = "mms-large-1"

func createParams() mms.MessageCreateParams {
	return mms.MessageCreateParams{
		Model: model, MaxTokens: 256,
		Temperature: mms.Ptr(0.5), TopP: mms.Ptr(0.9), TopK: mms.Ptr(40),
		StopSequences: []string{"###"},
		Messages:      []mms.MessageParam{mms.UserText("Hello there")},
	}
}

// semconvCase is one choice of names, with the keys that differ.
type semconvCase struct {
	name                           string
	opts                           []Option
	provider, cacheRead, cacheMade string
	latest                         bool
}

var semconvCases = []semconvCase{
	{"default", []Option{WithSemconv(SemconvDefault)}, "gen_ai.system",
		"mms.usage.cache_read.input_tokens", "mms.usage.cache_creation.input_tokens", false},
	{"latest", []Option{WithSemconv(SemconvLatestExperimental)}, "gen_ai.provider.name",
		"gen_ai.usage.cache_read.input_tokens", "gen_ai.usage.cache_creation.input_tokens", true},
}

// chatResponseAttrs are the response attributes of msg, then extra.
func chatResponseAttrs(sc semconvCase, msg *mms.Message, extra map[string]any) map[string]any {
	read, made := 0, 0
	if msg.Usage.CacheReadInputTokens != nil {
		read = *msg.Usage.CacheReadInputTokens
	}
	if msg.Usage.CacheCreationInputTokens != nil {
		made = *msg.Usage.CacheCreationInputTokens
	}
	m := map[string]any{
		"gen_ai.response.id":             msg.ID,
		"gen_ai.response.model":          msg.Model,
		"gen_ai.response.finish_reasons": []string{string(msg.StopReason)},
		"gen_ai.usage.input_tokens":      int64(msg.Usage.InputTokens + read + made),
		"gen_ai.usage.output_tokens":     int64(msg.Usage.OutputTokens),
		sc.cacheRead:                     int64(read),
		sc.cacheMade:                     int64(made),
	}
	if msg.Usage.ServiceTier != "" {
		m["mms.response.service_tier"] = string(msg.Usage.ServiceTier)
	}
	if msg.Usage.InferenceGeo != nil {
		m["mms.response.inference_geo"] = *msg.Usage.InferenceGeo
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestCreate(t *testing.T) {
	for _, sc := range semconvCases {
		t.Run(sc.name, func(t *testing.T) {
			r := newRig(t, sc.opts)
			ctx, parent := r.caller(context.Background())
			msg, err := r.client.Messages.Create(ctx, createParams())
			parent.End()
			if err != nil {
				t.Fatal(err)
			}

			chat := r.one(t, "chat "+model)
			if chat.SpanKind != trace.SpanKindClient || chat.Parent.SpanID() != parent.SpanContext().SpanID() ||
				chat.SpanContext.TraceID() != parent.SpanContext().TraceID() {
				t.Errorf("chat span kind %v parent %v, want a client span under the caller's", chat.SpanKind, chat.Parent.SpanID())
			}
			if chat.Status.Code != codes.Unset {
				t.Errorf("chat status %v, want unset", chat.Status)
			}
			checkAttrs(t, chat, chatResponseAttrs(sc, msg, map[string]any{
				"gen_ai.operation.name":         "chat",
				"mms.method":                    "Messages.Create",
				sc.provider:                     "vendor",
				"gen_ai.request.model":          model,
				"gen_ai.request.max_tokens":     int64(256),
				"gen_ai.request.temperature":    0.5,
				"gen_ai.request.top_p":          0.9,
				"gen_ai.request.top_k":          40.0,
				"gen_ai.request.stop_sequences": []string{"###"},
				"server.address":                r.host,
				"server.port":                   int64(r.port),
			}))

			attempts := r.children(chat)
			if len(attempts) != 1 {
				t.Fatalf("%d attempt spans, want 1", len(attempts))
			}
			checkAttrs(t, attempts[0], map[string]any{
				"http.request.method":       "POST",
				"url.full":                  r.srv.URL + "/v1/messages",
				"server.address":            r.host,
				"server.port":               int64(r.port),
				"http.response.status_code": int64(200),
			}, "mms.request_id")

			base := map[string]any{
				"gen_ai.operation.name": "chat", sc.provider: "vendor",
				"gen_ai.request.model": model, "gen_ai.response.model": msg.Model,
				"server.address": r.host, "server.port": int64(r.port),
			}
			durations := r.histograms(t, "gen_ai.client.operation.duration")
			if len(durations) != 1 || durations[0].count != 1 {
				t.Fatalf("duration points %+v, want one with one measurement", durations)
			}
			if diff := cmp.Diff(base, durations[0].attrs); diff != "" {
				t.Errorf("duration attributes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(durationBuckets, r.bounds(t, "gen_ai.client.operation.duration")); diff != "" {
				t.Errorf("duration buckets (-want +got):\n%s", diff)
			}
			checkTokens(t, r, base, msg.Usage.InputTokens, msg.Usage.OutputTokens)
			if got := r.histograms(t, "gen_ai.client.operation.time_to_first_chunk"); len(got) != 0 {
				t.Errorf("a Create recorded time to first chunk: %+v", got)
			}
		})
	}
}

// checkTokens checks gen_ai.client.token.usage: one input and one output
// measurement with base's attributes.
func checkTokens(t *testing.T, r *rig, base map[string]any, input, output int) {
	t.Helper()
	want := map[string]float64{"input": float64(input), "output": float64(output)}
	got := map[string]float64{}
	for _, p := range r.histograms(t, "gen_ai.client.token.usage") {
		typ, _ := p.attrs["gen_ai.token.type"].(string)
		delete(p.attrs, "gen_ai.token.type")
		if diff := cmp.Diff(base, p.attrs); diff != "" {
			t.Errorf("token usage %s attributes (-want +got):\n%s", typ, diff)
		}
		if p.count != 1 {
			t.Errorf("token usage %s: %d measurements, want 1", typ, p.count)
		}
		got[typ] = p.sum
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("token usage (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tokenBuckets, r.bounds(t, "gen_ai.client.token.usage")); diff != "" {
		t.Errorf("token buckets (-want +got):\n%s", diff)
	}
}

// TestCacheTokens: gen_ai.usage.input_tokens and the input token metric
// include the tokens written to and read from the cache; the cache counts
// have their own attributes.
func TestCacheTokens(t *testing.T) {
	long := strings.Repeat("The system prompt is long enough to be cached. ", 120)
	for _, sc := range semconvCases {
		t.Run(sc.name, func(t *testing.T) {
			r := newRig(t, sc.opts)
			p := createParams()
			p.System = mms.SystemPrompt{Text: long}
			p.CacheControl = &mms.CacheControl{}
			var msgs []*mms.Message
			for range 2 { // the first writes the cache, the second reads it
				msg, err := r.client.Messages.Create(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				msgs = append(msgs, msg)
			}
			chats := r.named("chat " + model)
			if len(chats) != 2 {
				t.Fatalf("%d chat spans, want 2", len(chats))
			}
			for i, want := range []struct{ made, read bool }{{made: true}, {read: true}} {
				u := msgs[i].Usage
				if (u.CacheCreationInputTokens != nil && *u.CacheCreationInputTokens > 0) != want.made ||
					(u.CacheReadInputTokens != nil && *u.CacheReadInputTokens > 0) != want.read {
					t.Fatalf("call %d usage %+v: the fake did not cache as expected", i, u)
				}
				got := attrs(chats[i].Attributes)
				wantAttrs := chatResponseAttrs(sc, msgs[i], nil)
				for _, k := range []string{"gen_ai.usage.input_tokens", sc.cacheRead, sc.cacheMade} {
					if got[k] != wantAttrs[k] {
						t.Errorf("call %d %s = %v, want %v", i, k, got[k], wantAttrs[k])
					}
				}
			}
			var input float64
			for _, p := range r.histograms(t, "gen_ai.client.token.usage") {
				if p.attrs["gen_ai.token.type"] == "input" {
					input += p.sum
				}
			}
			var want int
			for _, m := range msgs {
				want += m.Usage.InputTokens + *m.Usage.CacheReadInputTokens + *m.Usage.CacheCreationInputTokens
			}
			if input != float64(want) {
				t.Errorf("input token metric sum %v, want %d (cache included)", input, want)
			}
		})
	}
}

func TestStream(t *testing.T) {
	for _, sc := range semconvCases {
		t.Run(sc.name, func(t *testing.T) {
			r := newRig(t, sc.opts)
			ctx, parent := r.caller(context.Background())
			var acc mms.MessageAccumulator
			events := 0
			for ev, err := range r.client.Messages.Stream(ctx, createParams()) {
				if err != nil {
					t.Fatal(err)
				}
				if err := acc.Add(ev); err != nil {
					t.Fatal(err)
				}
				events++
			}
			parent.End()
			msg := acc.Message()

			chat := r.one(t, "chat "+model)
			if chat.Parent.SpanID() != parent.SpanContext().SpanID() {
				t.Errorf("stream span's parent is not the caller's")
			}
			want := chatResponseAttrs(sc, msg, map[string]any{
				"gen_ai.operation.name":         "chat",
				"mms.method":                    "Messages.Stream",
				sc.provider:                     "vendor",
				"gen_ai.request.model":          model,
				"gen_ai.request.max_tokens":     int64(256),
				"gen_ai.request.temperature":    0.5,
				"gen_ai.request.top_p":          0.9,
				"gen_ai.request.top_k":          40.0,
				"gen_ai.request.stop_sequences": []string{"###"},
				"server.address":                r.host,
				"server.port":                   int64(r.port),
				"mms.stream.events":             int64(events),
			})
			var skip []string
			if sc.latest {
				skip = append(skip, "gen_ai.response.time_to_first_chunk")
			}
			checkAttrs(t, chat, want, skip...)
			if len(r.children(chat)) != 1 {
				t.Errorf("%d attempt spans, want 1", len(r.children(chat)))
			}

			base := map[string]any{
				"gen_ai.operation.name": "chat", sc.provider: "vendor", "gen_ai.request.model": model,
				"server.address": r.host, "server.port": int64(r.port),
			}
			ttfc := r.histograms(t, "gen_ai.client.operation.time_to_first_chunk")
			if len(ttfc) != 1 || ttfc[0].count != 1 {
				t.Fatalf("time to first chunk points %+v, want one with one measurement", ttfc)
			}
			// The first chunk arrives before the response's model is known
			// from the final message: only the request's attributes.
			if diff := cmp.Diff(base, ttfc[0].attrs); diff != "" {
				t.Errorf("time to first chunk attributes (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(ttfcBuckets, r.bounds(t, "gen_ai.client.operation.time_to_first_chunk")); diff != "" {
				t.Errorf("time to first chunk buckets (-want +got):\n%s", diff)
			}
			if sc.latest {
				got, _ := attrs(chat.Attributes)["gen_ai.response.time_to_first_chunk"].(float64)
				if got <= 0 || got != ttfc[0].sum {
					t.Errorf("span time to first chunk %v, metric %v: want the same positive value", got, ttfc[0].sum)
				}
			}
			base["gen_ai.response.model"] = msg.Model
			checkTokens(t, r, base, msg.Usage.InputTokens, msg.Usage.OutputTokens)
		})
	}
}

// TestRetried: a 529 then a success is one chat span with two attempt
// spans, the first failed with its cause, the second a resend.
func TestRetried(t *testing.T) {
	r := newRig(t, nil)
	r.srv.FailNext("/v1/messages", 529)
	if _, err := r.client.Messages.Create(context.Background(), createParams()); err != nil {
		t.Fatal(err)
	}
	chat := r.one(t, "chat "+model)
	if chat.Status.Code != codes.Unset {
		t.Errorf("chat status %v, want unset after a successful retry", chat.Status)
	}
	if _, ok := attrs(chat.Attributes)["error.type"]; ok {
		t.Errorf("chat span has error.type after a successful retry")
	}
	attempts := r.children(chat)
	if len(attempts) != 2 {
		t.Fatalf("%d attempt spans, want 2", len(attempts))
	}
	common := map[string]any{
		"http.request.method": "POST", "url.full": r.srv.URL + "/v1/messages",
		"server.address": r.host, "server.port": int64(r.port),
	}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range common {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	checkAttrs(t, attempts[0], with(map[string]any{
		"http.response.status_code": int64(529), "error.type": "529", "mms.retry": true,
	}), "mms.request_id")
	checkAttrs(t, attempts[1], with(map[string]any{
		"http.response.status_code": int64(200), "http.request.resend_count": int64(1),
	}), "mms.request_id")
	if attempts[0].Status.Code != codes.Error || attempts[1].Status.Code != codes.Unset {
		t.Errorf("attempt statuses %v, %v; want error then unset", attempts[0].Status, attempts[1].Status)
	}
	if !attempts[0].EndTime.After(attempts[0].StartTime) || attempts[1].StartTime.Before(attempts[0].EndTime) {
		t.Errorf("attempt times overlap: %v–%v then %v", attempts[0].StartTime, attempts[0].EndTime, attempts[1].StartTime)
	}
	if got := r.histograms(t, "gen_ai.client.operation.duration"); len(got) != 1 || got[0].count != 1 {
		t.Errorf("duration points %+v, want one operation", got)
	}
}

// TestFailed: a call the service refuses ends the chat span in error with
// the service's error type, on the span and on the duration metric.
func TestFailed(t *testing.T) {
	tests := []struct {
		status  int
		errType string
	}{
		{400, "invalid_request_error"},
		{404, "not_found_error"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			r := newRig(t, nil)
			r.srv.FailNext("/v1/messages", tt.status)
			_, err := r.client.Messages.Create(context.Background(), createParams())
			var apiErr *mms.Error
			if !errors.As(err, &apiErr) || apiErr.Type != tt.errType {
				t.Fatalf("error %v, want a %s", err, tt.errType)
			}
			chat := r.one(t, "chat "+model)
			if chat.Status.Code != codes.Error || chat.Status.Description != err.Error() {
				t.Errorf("chat status %+v, want error %q", chat.Status, err.Error())
			}
			checkAttrs(t, chat, map[string]any{
				"gen_ai.operation.name":         "chat",
				"mms.method":                    "Messages.Create",
				"gen_ai.system":                 "vendor",
				"gen_ai.request.model":          model,
				"gen_ai.request.max_tokens":     int64(256),
				"gen_ai.request.temperature":    0.5,
				"gen_ai.request.top_p":          0.9,
				"gen_ai.request.top_k":          40.0,
				"gen_ai.request.stop_sequences": []string{"###"},
				"server.address":                r.host,
				"server.port":                   int64(r.port),
				"error.type":                    tt.errType,
			})
			attempts := r.children(chat)
			if len(attempts) != 1 || attrs(attempts[0].Attributes)["error.type"] != fmt.Sprint(tt.status) {
				t.Errorf("attempt spans %v, want one with error.type %d", attempts, tt.status)
			}
			d := r.histograms(t, "gen_ai.client.operation.duration")
			if len(d) != 1 || d[0].attrs["error.type"] != tt.errType {
				t.Errorf("duration points %+v, want one with error.type %s", d, tt.errType)
			}
			if got := r.histograms(t, "gen_ai.client.token.usage"); len(got) != 0 {
				t.Errorf("a failed call recorded token usage: %+v", got)
			}
		})
	}
}

func TestErrorType(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"service type", fmt.Errorf("wrapped: %w", &mms.Error{StatusCode: 529, Type: "overloaded_error"}), "overloaded_error"},
		{"no type", &mms.Error{StatusCode: 502}, "502"},
		{"validation", &mms.ValidationError{Field: "max_tokens", Rule: "must be positive"}, "validation_error"},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), "canceled"},
		{"deadline", context.DeadlineExceeded, "timeout"},
		{"other", errors.New("boom"), "_OTHER"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := errorType(tt.err); got != tt.want {
				t.Errorf("errorType(%v) = %q, want %q", tt.err, got, tt.want)
			}
		})
	}
}

type weatherIn struct {
	City string `json:"city"`
}

// TestToolRunner: a turn is an invoke_agent span holding its chat span
// and an execute_tool span per call; the chat records the tokens.
func TestToolRunner(t *testing.T) {
	r := newRig(t, []Option{WithSemconv(SemconvLatestExperimental), WithRecordContent(true)})
	r.srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Paris"}`}}},
		mmstest.Turn{Text: "It is sunny in Paris."},
	)
	runner := r.client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{Model: model, MaxTokens: 256,
			Messages: []mms.MessageParam{mms.UserText("Weather in Paris?")}},
		Tools: []mms.RunnableTool{mms.NewTool("get_weather", "The weather in a city",
			func(ctx context.Context, in weatherIn) (string, error) { return "sunny in " + in.City, nil })},
	})
	ctx, parent := r.caller(context.Background())
	var turns []*mms.ToolTurn
	for turn, err := range runner.Turns(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, turn)
	}
	parent.End()
	if len(turns) != 2 || len(turns[0].Calls) != 1 {
		t.Fatalf("turns %+v, want a tool turn then the answer", turns)
	}
	call := turns[0].Calls[0]

	agents := r.named("invoke_agent")
	if len(agents) != 2 {
		t.Fatalf("%d invoke_agent spans, want 2 (all: %v)", len(agents), spanNames(r.spans.GetSpans()))
	}
	for i, a := range agents {
		if a.SpanKind != trace.SpanKindInternal || a.Parent.SpanID() != parent.SpanContext().SpanID() {
			t.Errorf("turn %d: kind %v, parent %v; want an internal span under the caller's", i+1, a.SpanKind, a.Parent.SpanID())
		}
		got := attrs(a.Attributes)
		if got["gen_ai.operation.name"] != "invoke_agent" || got["gen_ai.provider.name"] != "vendor" ||
			got["gen_ai.request.model"] != model || got["mms.tool_runner.iteration"] != int64(i+1) {
			t.Errorf("turn %d attributes %v", i+1, got)
		}
	}
	kids := func(s tracetest.SpanStub) []string { return spanNames(r.children(s)) }
	if diff := cmp.Diff([]string{"chat " + model, "execute_tool get_weather"}, kids(agents[0])); diff != "" {
		t.Errorf("first turn's children (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"chat " + model}, kids(agents[1])); diff != "" {
		t.Errorf("second turn's children (-want +got):\n%s", diff)
	}
	tool := r.one(t, "execute_tool get_weather")
	if tool.SpanKind != trace.SpanKindInternal {
		t.Errorf("execute_tool kind %v, want internal", tool.SpanKind)
	}
	checkAttrs(t, tool, map[string]any{
		"gen_ai.operation.name":      "execute_tool",
		"mms.method":                 "get_weather",
		"gen_ai.tool.name":           "get_weather",
		"gen_ai.tool.call.id":        call.Use.ID,
		"gen_ai.tool.type":           "function",
		"gen_ai.tool.call.arguments": `{"city":"Paris"}`,
		"gen_ai.tool.call.result":    "sunny in Paris",
	})
	// Tokens are counted once, by the chats.
	var calls uint64
	for _, p := range r.histograms(t, "gen_ai.client.token.usage") {
		if p.attrs["gen_ai.operation.name"] != "chat" {
			t.Errorf("token usage recorded for %v", p.attrs["gen_ai.operation.name"])
		}
		calls += p.count
	}
	if calls != 4 {
		t.Errorf("%d token measurements, want 4 (input and output of two chats)", calls)
	}
}

// TestContent: content is recorded only on opt-in, in the conventions'
// message shape.
func TestContent(t *testing.T) {
	keys := []string{"gen_ai.system_instructions", "gen_ai.input.messages", "gen_ai.output.messages"}
	for _, on := range []bool{false, true} {
		t.Run(fmt.Sprint(on), func(t *testing.T) {
			r := newRig(t, []Option{WithRecordContent(on)})
			r.srv.Script(mmstest.Turn{Text: "Hi!"})
			p := createParams()
			p.System = mms.SystemPrompt{Text: "Be brief."}
			if _, err := r.client.Messages.Create(context.Background(), p); err != nil {
				t.Fatal(err)
			}
			got := attrs(r.one(t, "chat "+model).Attributes)
			if !on {
				for _, k := range keys {
					if _, ok := got[k]; ok {
						t.Errorf("%s recorded without opting in", k)
					}
				}
				return
			}
			want := map[string]any{
				"gen_ai.system_instructions": `[{"type":"text","content":"Be brief."}]`,
				"gen_ai.input.messages":      `[{"role":"user","parts":[{"type":"text","content":"Hello there"}]}]`,
				"gen_ai.output.messages":     `[{"role":"assistant","parts":[{"type":"text","content":"Hi!"}],"finish_reason":"end_turn"}]`,
			}
			for _, k := range keys {
				if got[k] != want[k] {
					t.Errorf("%s = %v, want %v", k, got[k], want[k])
				}
			}
		})
	}
}

func TestContentParts(t *testing.T) {
	blocks := mms.ContentBlocks{
		mms.TextBlock{Text: "t"},
		mms.ThinkingBlock{Thinking: "hmm", Signature: "sig"},
		mms.ToolUseBlock{ID: "toolu_1", Name: "f", Input: []byte(`{"a":1}`)},
		mms.ToolResult("toolu_1", "done", false),
		mms.UnknownContentBlock{Type: "hologram", Raw: []byte(`{"type":"hologram"}`)},
		mms.RedactedThinkingBlock{Data: "x"},
	}
	want := []part{
		{Type: "text", Content: "t"},
		{Type: "reasoning", Content: "hmm"},
		{Type: "tool_call", ID: "toolu_1", Name: "f", Arguments: []byte(`{"a":1}`)},
		{Type: "tool_call_response", ID: "toolu_1", Response: "done"},
		{Type: "hologram"},
		{Type: "redacted_thinking"},
	}
	if diff := cmp.Diff(want, parts(blocks)); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
}

// TestSemconvChoice: the opt-in variable selects the latest names, and an
// explicit option wins over it.
func TestSemconvChoice(t *testing.T) {
	tests := []struct {
		env      string
		opts     []Option
		provider string
	}{
		{"", nil, "gen_ai.system"},
		{"http", nil, "gen_ai.system"},
		{"http, gen_ai_latest_experimental", nil, "gen_ai.provider.name"},
		{"gen_ai_latest_experimental", []Option{WithSemconv(SemconvDefault)}, "gen_ai.system"},
		{"", []Option{WithSemconv(SemconvLatestExperimental)}, "gen_ai.provider.name"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q/%d", tt.env, len(tt.opts)), func(t *testing.T) {
			t.Setenv(stabilityEnv, tt.env)
			r := newRig(t, tt.opts)
			if _, err := r.client.Messages.Create(context.Background(), createParams()); err != nil {
				t.Fatal(err)
			}
			got := attrs(r.one(t, "chat "+model).Attributes)
			for _, k := range []string{"gen_ai.system", "gen_ai.provider.name"} {
				if _, ok := got[k]; ok != (k == tt.provider) {
					t.Errorf("%s present: %v, want %v", k, ok, k == tt.provider)
				}
			}
		})
	}
}

// TestSessionStream: a session's event stream is a client span with a
// span event per session event and its attempt as a child.
func TestSessionStream(t *testing.T) {
	r := newRig(t, nil)
	ctx := context.Background()
	agent, err := r.client.Agents.Create(ctx, mms.AgentCreateParams{Name: "echo", Model: mms.AgentModel(model)})
	if err != nil {
		t.Fatal(err)
	}
	env, err := r.client.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.client.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(agent.ID), EnvironmentID: env.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.client.Sessions.Events.Send(ctx, s.ID, mms.SessionEventSendParams{
		Events: []mms.SessionEventParams{mms.NewUserMessageEvent("Hello")},
	}); err != nil {
		t.Fatal(err)
	}
	ctx, parent := r.caller(ctx)
	var seen []string
	for ev, err := range r.client.Sessions.Events.Stream(ctx, s.ID, mms.SessionEventStreamParams{IncludeHistory: true}) {
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, ev.EventType())
		if idle, ok := ev.(mms.SessionStatusIdleEvent); ok {
			if _, done := idle.StopReason.(mms.SessionEndTurn); done {
				break
			}
		}
	}
	parent.End()

	span := r.one(t, "GET /v1/sessions/{id}/events/stream")
	if span.SpanKind != trace.SpanKindClient || span.Parent.SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("session stream kind %v parent %v, want a client span under the caller's", span.SpanKind, span.Parent.SpanID())
	}
	checkAttrs(t, span, map[string]any{
		"mms.operation.kind": "session_stream",
		"mms.method":         "GET /v1/sessions/" + s.ID + "/events/stream",
		"server.address":     r.host,
		"server.port":        int64(r.port),
		"mms.stream.events":  int64(len(seen)),
	})
	var events []string
	for _, e := range span.Events {
		events = append(events, e.Name)
	}
	if diff := cmp.Diff(seen, events); diff != "" {
		t.Errorf("span events (-want: the stream's events +got):\n%s", diff)
	}
	// Its children: the stream's attempt, and the listing of the stored
	// events the stream starts from (with its own attempt).
	kids := spanNames(r.children(span))
	slices.Sort(kids)
	if diff := cmp.Diff([]string{"GET", "GET /v1/sessions/{id}/events"}, kids); diff != "" {
		t.Errorf("children (-want +got):\n%s", diff)
	}
	if got := r.histograms(t, "gen_ai.client.operation.duration"); len(got) != 0 {
		t.Errorf("a session stream recorded a chat duration: %+v", got)
	}
}

func TestRoute(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/v1/models", "/v1/models"},
		{"/v1/messages/count_tokens", "/v1/messages/count_tokens"},
		{"/v1/sessions/sesn_011/events/stream", "/v1/sessions/{id}/events/stream"},
		{"/v1/models/mms-large-1", "/v1/models/{id}"},
		{"/v2/files/file_9/content", "/v2/files/{id}/content"},
	}
	for _, tt := range tests {
		if got := route(tt.path); got != tt.want {
			t.Errorf("route(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

// TestSampledOut: when the sampler drops the span (the observer then
// skips its attributes and attempt spans), the metrics are still recorded
// in full, server and response model included.
func TestSampledOut(t *testing.T) {
	r := newSampledRig(t, sdktrace.NeverSample(), []Option{WithRecordContent(true)})
	r.srv.FailNext("/v1/messages", 529)
	msg, err := r.client.Messages.Create(context.Background(), createParams())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.spans.GetSpans(); len(got) != 0 {
		t.Errorf("spans %v exported, want none", spanNames(got))
	}
	base := map[string]any{
		"gen_ai.operation.name": "chat", "gen_ai.system": "vendor",
		"gen_ai.request.model": model, "gen_ai.response.model": msg.Model,
		"server.address": r.host, "server.port": int64(r.port),
	}
	d := r.histograms(t, "gen_ai.client.operation.duration")
	if len(d) != 1 {
		t.Fatalf("duration points %+v, want 1", d)
	}
	if diff := cmp.Diff(base, d[0].attrs); diff != "" {
		t.Errorf("duration attributes (-want +got):\n%s", diff)
	}
	checkTokens(t, r, base, msg.Usage.InputTokens, msg.Usage.OutputTokens)
}

// TestCountTokens: a count is a client span of its own operation whose
// count is not token usage (no gen_ai.usage.*, no token metric).
func TestCountTokens(t *testing.T) {
	r := newRig(t, nil)
	n, err := r.client.Messages.CountTokens(context.Background(), mms.MessageCountTokensParams{
		Model: model, Messages: []mms.MessageParam{mms.UserText("Hello there")}})
	if err != nil {
		t.Fatal(err)
	}
	span := r.one(t, "count_tokens "+model)
	checkAttrs(t, span, map[string]any{
		"gen_ai.operation.name":         "count_tokens",
		"mms.method":                    "Messages.CountTokens",
		"gen_ai.system":                 "vendor",
		"gen_ai.request.model":          model,
		"server.address":                r.host,
		"server.port":                   int64(r.port),
		"mms.count_tokens.input_tokens": int64(n.InputTokens),
	})
	if got := r.histograms(t, "gen_ai.client.token.usage"); len(got) != 0 {
		t.Errorf("a count recorded token usage: %+v", got)
	}
	if d := r.histograms(t, "gen_ai.client.operation.duration"); len(d) != 1 || d[0].attrs["gen_ai.operation.name"] != "count_tokens" {
		t.Errorf("duration points %+v, want one count_tokens", d)
	}
}

// TestList: a list iteration is one span named by its route, with an
// attempt span per page.
func TestList(t *testing.T) {
	r := newRig(t, nil)
	pages := 0
	for _, err := range r.client.Models.List(context.Background(), mms.ModelListParams{Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
	}
	span := r.one(t, "GET /v1/models")
	checkAttrs(t, span, map[string]any{
		"mms.operation.kind": "list",
		"mms.method":         "GET /v1/models",
		"server.address":     r.host,
		"server.port":        int64(r.port),
	})
	if pages < 2 || len(r.children(span)) != pages {
		t.Errorf("%d attempt spans for %d one-model pages, want one per page (and at least two)", len(r.children(span)), pages)
	}
}

// TestToolFailure: a tool that fails ends its execute_tool span in error.
func TestToolFailure(t *testing.T) {
	r := newRig(t, nil)
	r.srv.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_weather", Input: `{"city":"Atlantis"}`}}},
		mmstest.Turn{Text: "No idea."},
	)
	runner := r.client.Messages.NewToolRunner(mms.ToolRunnerParams{
		Params: mms.MessageCreateParams{Model: model, MaxTokens: 256,
			Messages: []mms.MessageParam{mms.UserText("Weather in Atlantis?")}},
		Tools: []mms.RunnableTool{mms.NewTool("get_weather", "The weather in a city",
			func(ctx context.Context, in weatherIn) (string, error) {
				return "", errors.New("no station in " + in.City)
			})},
	})
	if _, err := runner.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	tool := r.one(t, "execute_tool get_weather")
	if tool.Status.Code != codes.Error || !strings.Contains(tool.Status.Description, "no station in Atlantis") {
		t.Errorf("execute_tool status %+v, want the tool's error", tool.Status)
	}
	if got := attrs(tool.Attributes)["error.type"]; got != "_OTHER" {
		t.Errorf("execute_tool error.type %v, want _OTHER", got)
	}
	if _, ok := attrs(tool.Attributes)["gen_ai.tool.call.result"]; ok {
		t.Errorf("content recorded without opting in")
	}
}

// TestStreamContent: a stream's reply is recorded from the accumulated
// message.
func TestStreamContent(t *testing.T) {
	r := newRig(t, []Option{WithRecordContent(true)})
	r.srv.Script(mmstest.Turn{Text: "Streamed hi."})
	for _, err := range r.client.Messages.Stream(context.Background(), createParams()) {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := attrs(r.one(t, "chat "+model).Attributes)["gen_ai.output.messages"]
	want := `[{"role":"assistant","parts":[{"type":"text","content":"Streamed hi."}],"finish_reason":"end_turn"}]`
	if got != want {
		t.Errorf("gen_ai.output.messages = %v, want %v", got, want)
	}
}
