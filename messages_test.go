package mms_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// newFake starts mmstest and a client on it.
func newFake(t *testing.T, opts ...option.RequestOption) (*mms.Client, *mmstest.Server) {
	t.Helper()
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	base := []option.RequestOption{option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL)}
	c, err := mms.NewClient(append(base, opts...)...)
	require.NoError(t, err)
	return c, srv
}

var weatherTool = mms.CustomTool{
	Name:        "get_weather",
	Description: "Current weather for a city.",
	InputSchema: mms.InputSchema(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

func TestMessagesCreate(t *testing.T) {
	c, _ := newFake(t)
	msg, err := c.Messages.Create(context.Background(), mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserText("hello there")},
	})
	require.NoError(t, err)
	if got := msg.Text(); got != "You said: hello there" {
		t.Errorf("text = %q", got)
	}
	if msg.StopReason != mms.StopReasonEndTurn || msg.Usage.InputTokens == 0 || msg.Usage.OutputTokens == 0 {
		t.Errorf("stop %q usage %+v", msg.StopReason, msg.Usage)
	}
}

func TestMessagesCountTokensAgreesWithUsage(t *testing.T) {
	c, _ := newFake(t)
	ctx := context.Background()
	msgs := []mms.MessageParam{mms.UserText("count me please"), mms.AssistantText("ok"), mms.UserText("and again")}
	system := mms.SystemText("Be brief.")
	msg, err := c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 100, Messages: msgs, System: system,
		Tools: mms.Tools{weatherTool}})
	require.NoError(t, err)
	count, err := c.Messages.CountTokens(ctx, mms.MessageCountTokensParams{Model: "mms-large-1", Messages: msgs, System: system,
		Tools: mms.Tools{weatherTool}})
	require.NoError(t, err)
	if count.InputTokens != msg.Usage.InputTokens {
		t.Errorf("count_tokens %d != usage.input_tokens %d", count.InputTokens, msg.Usage.InputTokens)
	}
}

func TestMessagesValidationSendsNothing(t *testing.T) {
	ok := []mms.MessageParam{mms.UserText("hi")}
	tests := []struct {
		name      string
		p         mms.MessageCreateParams
		wantField string
	}{
		{"no model", mms.MessageCreateParams{MaxTokens: 1, Messages: ok}, "model"},
		{"negative max_tokens", mms.MessageCreateParams{Model: "m", MaxTokens: -1, Messages: ok}, "max_tokens"},
		{"no messages", mms.MessageCreateParams{Model: "m", MaxTokens: 1}, "messages"},
		{"bad role", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{{Role: "bot", Content: mms.ContentBlocks{mms.TextBlock{Text: "x"}}}}}, "messages[0].role"},
		{"only system messages", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{mms.SystemMessageText("x")}}, "messages"},
		{"empty text", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{ok[0], mms.UserMessage(mms.TextBlock{Text: "a"}, mms.TextBlock{})}}, "messages[1].content[1].text"},
		{"temperature", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: ok, Temperature: mms.Ptr(1.5)}, "temperature"},
		{"top_k", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: ok, TopK: mms.Ptr(-1)}, "top_k"},
		{"thinking budget over max_tokens", mms.MessageCreateParams{Model: "m", MaxTokens: 1500, Messages: ok,
			Thinking: mms.ThinkingConfigEnabled{BudgetTokens: 2000}}, "thinking.budget_tokens"},
		{"system block", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: ok, System: mms.SystemBlocks(mms.TextBlock{})}, "system[0].text"},
		{"cache ttl", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: ok, CacheControl: &mms.CacheControl{TTL: "2h"}}, "cache_control.ttl"},
		{"fallbacks with credit", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: ok,
			Fallbacks: &mms.Fallbacks{Default: true}, FallbackCreditToken: &mms.FallbackCreditToken{Token: "t"}}, "fallback_credit_token"},
		{"container skill id", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: ok,
			Container: &mms.ContainerParam{Skills: []mms.SkillParam{{Type: "custom", SkillID: "bad id"}}}}, "container.skills[0].skill_id"},
		{"fallback model", mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: ok,
			Fallbacks: &mms.Fallbacks{Models: []mms.FallbackParam{{}}}}, "fallbacks[0].model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t)
			_, err := c.Messages.Create(context.Background(), tt.p)
			var ve *mms.ValidationError
			if !errors.As(err, &ve) || ve.Field != tt.wantField || !errors.Is(err, mms.ErrInvalidParams) {
				t.Fatalf("err = %v, want a ValidationError on %s", err, tt.wantField)
			}
			if n := len(srv.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

func TestMessagesBetasAddedAutomatically(t *testing.T) {
	c, srv := newFake(t, option.WithBeta("context-1m-2025-08-07"))
	_, err := c.Messages.Create(context.Background(), mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 50, Messages: []mms.MessageParam{mms.UserText("hi")},
		Diagnostics: &mms.Diagnostics{},
		Speed:       mms.SpeedStandard,
	})
	require.NoError(t, err)
	got := srv.Requests()[0].Header.Get("Vendor-Beta")
	if want := "context-1m-2025-08-07,fast-mode-2026-02-01,cache-diagnosis-2026-04-07"; got != want {
		t.Errorf("vendor-beta = %q, want %q", got, want)
	}
}

// TestAgentLoop runs a tool-use turn with thinking against the fake: the
// assistant reply goes back unchanged, with a tool_result, and is accepted.
func TestAgentLoop(t *testing.T) {
	c, _ := newFake(t)
	ctx := context.Background()
	p := mms.MessageCreateParams{
		Model: "mms-large-1", MaxTokens: 4096,
		Thinking: mms.ThinkingConfigEnabled{BudgetTokens: 1024},
		Tools:    mms.Tools{weatherTool},
		Messages: []mms.MessageParam{mms.UserText("Please call get_weather for Paris")},
	}
	msg, err := c.Messages.Create(ctx, p)
	require.NoError(t, err)
	if _, ok := msg.Content[0].(mms.ThinkingBlock); !ok {
		t.Fatalf("first block is %T, want thinking", msg.Content[0])
	}
	uses := msg.ToolUses()
	if len(uses) != 1 || uses[0].Name != "get_weather" || msg.StopReason != mms.StopReasonToolUse {
		t.Fatalf("tool uses %+v, stop %q", uses, msg.StopReason)
	}
	p.Messages = append(p.Messages, msg.ToParam(),
		mms.UserMessage(mms.ToolResult(uses[0].ID, "18°C and sunny", false)))
	next, err := c.Messages.Create(ctx, p)
	if err != nil {
		t.Fatalf("the service refused the echoed turn: %v", err)
	}
	if !strings.Contains(next.Text(), "18°C and sunny") {
		t.Errorf("reply %q does not see the tool result", next.Text())
	}

	// A tampered thinking block is refused by the service.
	tampered := msg.ToParam()
	th := tampered.Content[0].(mms.ThinkingBlock)
	th.Thinking += " (edited)"
	tampered.Content = append(mms.ContentBlocks{th}, tampered.Content[1:]...)
	p.Messages[1] = tampered
	_, err = c.Messages.Create(ctx, p)
	if !errors.Is(err, mms.ErrInvalidRequest) {
		t.Errorf("tampered thinking accepted: %v", err)
	}
}

func TestMessagesErrorFromFake(t *testing.T) {
	c, _ := newFake(t)
	_, err := c.Messages.Create(context.Background(), mms.MessageCreateParams{
		Model: "no-such-model", MaxTokens: 10, Messages: []mms.MessageParam{mms.UserText("hi")},
	})
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || !strings.HasPrefix(apiErr.RequestID, "req_") {
		t.Fatalf("err = %v", err)
	}
}

func TestMessageParamsSharedByRequestAndResponse(t *testing.T) {
	// Message.Content and MessageParam.Content are the same type.
	var blocks []mms.ContentBlock = []mms.ContentBlock{mms.TextBlock{Text: "x"}}
	p := mms.MessageParam{Role: mms.RoleAssistant, Content: blocks}
	m := mms.Message{Content: blocks}
	if d := cmp.Diff(p.Content, m.Content); d != "" {
		t.Error(d)
	}
}
