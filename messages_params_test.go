package mms

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/fixtures"

	"github.com/stretchr/testify/require"
)

// TestRecordedRequestBodiesAsParams decodes every request body (project
// fixtures, and the recorded ones when present) into the params type of
// its endpoint, validates it, and re-encodes it JSON-equal. "stream" is
// dropped from the comparison: streaming is a method (Messages.Stream),
// not a parameter.
func TestRecordedRequestBodiesAsParams(t *testing.T) {
	files := append(requestBodyFiles(t), fixtures.Recorded(t, "*/*.request.json")...)
	for _, file := range files {
		t.Run(fixtures.Name(file), func(t *testing.T) {
			data := fixtures.Read(t, file)
			var want map[string]json.RawMessage
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			delete(want, "stream")
			wantJSON, _ := json.Marshal(want)

			var params interface{ Validate() error }
			if strings.Contains(file, "count_tokens") {
				params = new(MessageCountTokensParams)
			} else {
				params = new(MessageCreateParams)
			}
			if err := json.Unmarshal(data, params); err != nil {
				t.Fatalf("decode: %v", err)
			}
			if unknown := findUnknown("params", reflect.ValueOf(params)); len(unknown) > 0 {
				t.Errorf("unknown variants:\n%s", strings.Join(unknown, "\n"))
			}
			// Bodies recorded for a 400 may break a server-side rule; the
			// rest must pass client-side validation.
			if err := params.Validate(); err != nil && !strings.Contains(file, "400__") {
				t.Errorf("validation: %v", err)
			}
			got, err := json.Marshal(params)
			if err != nil {
				t.Fatalf("encode: %v", err)
			}
			// Numbers compare by value: a float parameter written 1.0 on
			// the wire comes back as 1.
			var a, b any
			json.Unmarshal(wantJSON, &a)
			json.Unmarshal(got, &b)
			if d := cmp.Diff(a, b); d != "" {
				t.Errorf("JSON differs (-want +got):\n%s", d)
			}
		})
	}
}

func TestParamsForms(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"system text", SystemText("be brief"), `"be brief"`},
		{"system blocks", SystemBlocks(TextBlock{Text: "a", Extra: map[string]json.RawMessage{"x": json.RawMessage(`1`)}}), `[{"type":"text","text":"a"}]`},
		{"container id", ContainerParam{ID: "cont_1"}, `"cont_1"`},
		{"container object", ContainerParam{Skills: []SkillParam{{Type: "custom", SkillID: "s1"}}}, `{"skills":[{"type":"custom","skill_id":"s1"}]}`},
		{"credit token string", FallbackCreditToken{Token: "t"}, `"t"`},
		{"credit token object", FallbackCreditToken{Token: "t", Mode: FallbackCreditBestEffort}, `{"token":"t","mode":"best_effort"}`},
		{"fallbacks default", Fallbacks{Default: true}, `"default"`},
		{"fallbacks list", Fallbacks{Models: []FallbackParam{{Model: "m2", Thinking: ThinkingConfigDisabled{}}}}, `[{"model":"m2","thinking":{"type":"disabled"}}]`},
		{"diagnostics first turn", Diagnostics{}, `{"previous_message_id":null}`},
		{"count params with unions", MessageCountTokensParams{Model: "m", Messages: []MessageParam{}, Thinking: ThinkingConfigAdaptive{},
			ToolChoice: ToolChoiceNone{}, Tools: Tools{BashTool{Version: Bash20250124, Name: "bash"}},
			ContextManagement: &ContextManagement{Edits: ContextEdits{ClearThinkingEdit{Keep: ThinkingKeepAll{Bare: true}}}}},
			`{"model":"m","messages":[],"thinking":{"type":"adaptive"},"tool_choice":{"type":"none"},"tools":[{"type":"bash_20250124","name":"bash"}],"context_management":{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]}}`},
		{"max_tokens zero is sent", MessageCreateParams{Model: "m", Messages: []MessageParam{UserText("hi")}},
			`{"model":"m","max_tokens":0,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`},
		{"zero temperature is sent", MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []MessageParam{}, Temperature: Ptr(0.0), TopK: Ptr(0)},
			`{"model":"m","max_tokens":1,"messages":[],"temperature":0,"top_k":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			if string(got) != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
			// And back: decoding the wire form gives the same value.
			back := reflect.New(reflect.TypeOf(tt.in))
			if err := json.Unmarshal(got, back.Interface()); err != nil {
				t.Fatal(err)
			}
			again, _ := json.Marshal(back.Elem().Interface())
			if d := cmp.Diff(tt.want, string(again)); d != "" && !strings.HasPrefix(tt.name, "system blocks") {
				t.Errorf("re-encode (-want +got):\n%s", d)
			}
		})
	}
}

func TestNonStreamingTimeout(t *testing.T) {
	for _, tt := range []struct {
		maxTokens int
		want      time.Duration
	}{
		{0, 10 * time.Minute}, {1024, 10 * time.Minute}, {21_334, 10*time.Minute + 18750*time.Microsecond},
		{64_000, 30 * time.Minute}, {128_000, time.Hour}, {1_000_000, time.Hour},
	} {
		if got := nonStreamingTimeout(tt.maxTokens); got.Round(time.Millisecond) != tt.want.Round(time.Millisecond) {
			t.Errorf("nonStreamingTimeout(%d) = %v, want %v", tt.maxTokens, got, tt.want)
		}
	}
}
