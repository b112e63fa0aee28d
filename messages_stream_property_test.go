package mms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestStreamMatchesCreate is a property test against mmstest: for many
// varied requests, Stream folded by MessageAccumulator gives exactly the
// Message that Create returns for the same request (cmp.Diff on the Go
// values, Extra maps and raw tool input included), or both fail with the
// same *Error type and status.
//
// Ids: the fake takes msg_ and toolu_ ids from per-server counters. Stream
// and Create each talk to their own server, and both servers receive the
// same sequence of requests, so their counters stay in step and the ids
// agree without normalisation; a mismatch in ids would therefore be a real
// difference.
func TestStreamMatchesCreate(t *testing.T) {
	streamSrv, createSrv := mmstest.NewServer(), mmstest.NewServer()
	t.Cleanup(streamSrv.Close)
	t.Cleanup(createSrv.Close)
	client := func(srv *mmstest.Server) *Client {
		c, err := NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
		require.NoError(t, err)
		return c
	}
	sc, cc := client(streamSrv), client(createSrv)
	ctx := context.Background()

	rng := rand.New(rand.NewPCG(4, 2))
	const cases = 120
	succeeded, withTools, withThinking := 0, 0, 0
	for i := range cases {
		p, desc := randomParams(rng)
		t.Run(fmt.Sprintf("%03d", i), func(t *testing.T) {
			want, wantErr := cc.Messages.Create(ctx, p)
			var acc MessageAccumulator
			var streamErr error
			for ev, err := range sc.Messages.Stream(ctx, p) {
				if err != nil {
					streamErr = err
					break
				}
				if err := acc.Add(ev); err != nil {
					t.Fatalf("%s: Add: %v", desc, err)
				}
			}
			if wantErr != nil || streamErr != nil {
				var a, b *Error
				if !errors.As(wantErr, &a) || !errors.As(streamErr, &b) || a.StatusCode != b.StatusCode || a.Type != b.Type || a.Message != b.Message {
					t.Fatalf("%s: Create error %v, Stream error %v", desc, wantErr, streamErr)
				}
				return
			}
			if !acc.Done() {
				t.Fatalf("%s: stream incomplete", desc)
			}
			got := acc.Message()
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: streamed message differs from Create's (-create +stream):\n%s", desc, diff)
			}
			// And the JSON they write is the same.
			wb, _ := json.Marshal(want)
			gb, _ := json.Marshal(got)
			if string(wb) != string(gb) {
				t.Fatalf("%s: JSON differs:\n%s\n%s", desc, wb, gb)
			}
			succeeded++
			if len(got.ToolUses()) > 0 {
				withTools++
			}
			for _, b := range got.Content {
				if _, ok := b.(ThinkingBlock); ok {
					withThinking++
					break
				}
			}
		})
	}
	t.Logf("%d of %d requests succeeded, %d with tool calls, %d with thinking", succeeded, cases, withTools, withThinking)
	// The generator must exercise what it claims to.
	if succeeded < cases*2/3 || withTools < 10 || withThinking < 10 {
		t.Errorf("weak coverage: %d of %d succeeded, %d with tool calls, %d with thinking", succeeded, cases, withTools, withThinking)
	}
}

var propertyWords = []string{"hello", "Oslo", "weather", "lookup", "count", "wörld", "日本語", "🎉", "stop", "and", "the", "\"quoted\"", "line\nbreak", "tab\there", `back\slash`, "<b>&amp;</b>"}

var propertyTools = []CustomTool{
	streamLookupTool,
	{Name: "count", InputSchema: InputSchema(`{"type":"object","properties":{"n":{"type":"integer"},"flag":{"type":"boolean"}},"required":["n","flag"]}`)},
	{Name: "weather", Description: "Weather.", InputSchema: InputSchema(`{"type":"object","properties":{"unit":{"enum":["c","f"]},"city":{"type":"string"},"tags":{"type":"array"},"opt":{"type":"object","properties":{"deep":{"type":"number"}},"required":["deep"]}},"required":["city","unit","tags","opt"]}`)},
}

// randomParams builds a varied, mostly valid request: prompts of random
// words (tool names among them or not), 0-3 tools, tool_choice, thinking
// off/enabled/adaptive/omitted, stop sequences, max_tokens 0, small or
// large, a prefill, a system prompt.
func randomParams(rng *rand.Rand) (MessageCreateParams, string) {
	var words []string
	for range 1 + rng.IntN(12) {
		words = append(words, propertyWords[rng.IntN(len(propertyWords))])
	}
	prompt := strings.Join(words, " ")
	p := MessageCreateParams{Model: "mms-large-1", Messages: []MessageParam{UserText(prompt)}}
	var desc []string

	switch r := rng.IntN(10); {
	case r == 0:
		p.MaxTokens = 0
	case r < 3:
		p.MaxTokens = 1 + rng.IntN(12)
	default:
		p.MaxTokens = 2048 + rng.IntN(2048)
	}
	desc = append(desc, fmt.Sprintf("max_tokens=%d", p.MaxTokens))

	if n := rng.IntN(4); n > 0 {
		for _, i := range rng.Perm(len(propertyTools))[:n] {
			p.Tools = append(p.Tools, propertyTools[i])
		}
		desc = append(desc, fmt.Sprintf("%d tools", n))
		switch rng.IntN(6) {
		case 0:
			p.ToolChoice = ToolChoiceAny{}
		case 1:
			p.ToolChoice = ToolChoiceNone{}
		case 2:
			p.ToolChoice = ToolChoiceTool{Name: p.Tools[0].(CustomTool).Name}
		case 3:
			p.ToolChoice = ToolChoiceAuto{DisableParallelToolUse: true}
		}
		if p.ToolChoice != nil {
			desc = append(desc, fmt.Sprintf("tool_choice=%T", p.ToolChoice))
		}
	}
	if p.MaxTokens > MinThinkingBudget {
		switch rng.IntN(4) {
		case 0:
			p.Thinking = ThinkingConfigEnabled{BudgetTokens: MinThinkingBudget}
		case 1:
			p.Thinking = ThinkingConfigAdaptive{}
		case 2:
			p.Thinking = ThinkingConfigAdaptive{Display: ThinkingDisplayOmitted}
		}
		if p.Thinking != nil {
			desc = append(desc, fmt.Sprintf("thinking=%T", p.Thinking))
		}
	}
	if rng.IntN(4) == 0 {
		p.StopSequences = []string{words[rng.IntN(len(words))], "never-appears"}
		desc = append(desc, fmt.Sprintf("stop=%q", p.StopSequences[0]))
	}
	if rng.IntN(6) == 0 {
		p.Messages = append(p.Messages, AssistantText("Sure, "+words[0]))
		desc = append(desc, "prefill")
	}
	if rng.IntN(5) == 0 {
		p.System = SystemText("Be brief.")
		desc = append(desc, "system")
	}
	if rng.IntN(8) == 0 {
		p.ContextManagement = &ContextManagement{Edits: ContextEdits{ClearToolUsesEdit{}}}
		desc = append(desc, "context_management")
	}
	return p, fmt.Sprintf("%q [%s]", prompt, strings.Join(desc, ", "))
}
