package mms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/platform"
)

const threadBeta = "message-threads-2026-08-12"

// threadBody is what a test reads of a sent request.
type threadBody struct {
	Model    string            `json:"model"`
	Messages []json.RawMessage `json:"messages"`
	System   json.RawMessage   `json:"system"`
	Tools    json.RawMessage   `json:"tools"`
	Thread   *struct {
		Type              string `json:"type"`
		PreviousMessageID string `json:"previous_message_id"`
	} `json:"thread"`
	Container json.RawMessage `json:"container"`
}

func decodeThreadBody(t *testing.T, body []byte) threadBody {
	t.Helper()
	var b threadBody
	require.NoError(t, json.Unmarshal(body, &b), "%s", body)
	return b
}

// threadKind is "create", "continue" or "" (unthreaded).
func (b threadBody) threadKind() string {
	if b.Thread == nil {
		return ""
	}
	return b.Thread.Type
}

func threadParams() mms.MessageCreateParams {
	return mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 256, System: mms.SystemText("Answer briefly."),
		Tools: mms.Tools{weatherTool}}
}

func wantCode(t *testing.T, err error, status int, code mms.ErrorCode) *mms.Error {
	t.Helper()
	var e *mms.Error
	require.True(t, errors.As(err, &e), "want an *mms.Error, got %v", err)
	assert.Equal(t, status, e.StatusCode, e.Message)
	assert.Equal(t, code, e.Code, e.Message)
	return e
}

// TestThreadParamValidation: the SDK's rules for the thread member, each on
// both sides, before anything is sent.
func TestThreadParamValidation(t *testing.T) {
	user := []mms.MessageParam{mms.UserText("hi")}
	cc := &mms.CacheControl{}
	cont := mms.ThreadContinue{PreviousMessageID: "msg_1"}
	base := func(edit func(*mms.MessageCreateParams)) mms.MessageCreateParams {
		p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: user}
		edit(&p)
		return p
	}
	for _, tt := range []struct {
		name  string
		p     mms.MessageCreateParams
		field string // "" = valid
	}{
		{"create", base(func(p *mms.MessageCreateParams) {
			p.Thread, p.System, p.Tools = mms.ThreadCreate{}, mms.SystemText("s"), mms.Tools{weatherTool}
		}), ""},
		{"create needs messages", base(func(p *mms.MessageCreateParams) { p.Thread, p.Messages = mms.ThreadCreate{}, nil }), "messages"},
		{"continue", base(func(p *mms.MessageCreateParams) { p.Thread = cont }), ""},
		{"continue with no messages", base(func(p *mms.MessageCreateParams) { p.Thread, p.Messages = cont, []mms.MessageParam{} }), ""},
		{"continue needs previous_message_id", base(func(p *mms.MessageCreateParams) { p.Thread = mms.ThreadContinue{} }), "thread.previous_message_id"},
		{"continue omits system", base(func(p *mms.MessageCreateParams) { p.Thread, p.System = cont, mms.SystemText("s") }), "system"},
		{"continue omits tools", base(func(p *mms.MessageCreateParams) { p.Thread, p.Tools = cont, mms.Tools{weatherTool} }), "tools"},
		{"no thread: cache_control allowed", base(func(p *mms.MessageCreateParams) { p.CacheControl = cc }), ""},
		{"cache_control", base(func(p *mms.MessageCreateParams) { p.Thread, p.CacheControl = mms.ThreadCreate{}, cc }), "cache_control"},
		{"cache_control in system", base(func(p *mms.MessageCreateParams) {
			p.Thread, p.System = mms.ThreadCreate{}, mms.SystemBlocks(mms.TextBlock{Text: "s", CacheControl: cc})
		}), "system[0].cache_control"},
		{"cache_control in tools", base(func(p *mms.MessageCreateParams) {
			tool := weatherTool
			tool.CacheControl = cc
			p.Thread, p.Tools = mms.ThreadCreate{}, mms.Tools{tool}
		}), "tools[0].cache_control"},
		{"cache_control in messages", base(func(p *mms.MessageCreateParams) {
			p.Thread = cont
			p.Messages = []mms.MessageParam{{Role: mms.RoleUser, Content: mms.ContentBlocks{mms.TextBlock{Text: "x", CacheControl: cc}}}}
		}), "messages[0].content[0].cache_control"},
		{"a tool input member named cache_control is data", base(func(p *mms.MessageCreateParams) {
			p.Thread = mms.ThreadCreate{}
			p.Messages = []mms.MessageParam{mms.UserText("hi"), {Role: mms.RoleAssistant, Content: mms.ContentBlocks{
				mms.ToolUseBlock{ID: "toolu_1", Name: "get_weather", Input: json.RawMessage(`{"cache_control":1}`)}}},
				{Role: mms.RoleUser, Content: mms.ContentBlocks{mms.ToolResultBlock{ToolUseID: "toolu_1"}}}}
		}), ""},
		{"context_management", base(func(p *mms.MessageCreateParams) {
			p.Thread, p.ContextManagement = mms.ThreadCreate{}, &mms.ContextManagement{}
		}), "context_management"},
		{"fallbacks", base(func(p *mms.MessageCreateParams) {
			p.Thread, p.Fallbacks = mms.ThreadCreate{}, &mms.Fallbacks{Default: true}
		}), "fallbacks"},
		{"thinking", base(func(p *mms.MessageCreateParams) {
			p.Thread, p.Thinking = mms.ThreadCreate{}, mms.ThinkingConfigAdaptive{}
		}), "thinking"},
		{"no thread: thinking allowed", base(func(p *mms.MessageCreateParams) { p.Thinking = mms.ThinkingConfigAdaptive{} }), ""},
		{"unknown thread type passes", base(func(p *mms.MessageCreateParams) {
			p.Thread = mms.UnknownThreadParam{Type: "fork", Raw: json.RawMessage(`{"type":"fork"}`)}
		}), ""},
		{"unknown thread must be an object", base(func(p *mms.MessageCreateParams) {
			p.Thread = mms.UnknownThreadParam{Raw: json.RawMessage(`1`)}
		}), "thread"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.p.Validate()
			if tt.field == "" {
				require.NoError(t, err)
				return
			}
			var ve *mms.ValidationError
			require.True(t, errors.As(err, &ve), "%v", err)
			assert.Equal(t, tt.field, ve.Field, ve.Rule)
		})
	}
}

// TestThreadParamWire: the member encodes as the spec writes it, decodes
// back to the same variant, and adds its beta.
func TestThreadParamWire(t *testing.T) {
	for _, tt := range []struct {
		thread mms.ThreadParam
		want   string
	}{
		{mms.ThreadCreate{}, `{"type":"create"}`},
		{mms.ThreadContinue{PreviousMessageID: "msg_1"}, `{"type":"continue","previous_message_id":"msg_1"}`},
		{mms.UnknownThreadParam{Type: "fork", Raw: json.RawMessage(`{"type":"fork","from":"msg_1"}`)}, `{"type":"fork","from":"msg_1"}`},
	} {
		p := mms.MessageCreateParams{Model: "m", MaxTokens: 1, Messages: []mms.MessageParam{mms.UserText("hi")}, Thread: tt.thread}
		data, err := json.Marshal(p)
		require.NoError(t, err)
		var got struct {
			Thread json.RawMessage `json:"thread"`
		}
		require.NoError(t, json.Unmarshal(data, &got))
		assert.JSONEq(t, tt.want, string(got.Thread))
		var back mms.MessageCreateParams
		require.NoError(t, json.Unmarshal(data, &back))
		if diff := cmp.Diff(tt.thread, back.Thread); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}

	c, srv := newFake(t)
	_, err := c.Messages.Create(context.Background(), mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64,
		Messages: []mms.MessageParam{mms.UserText("hi")}, Thread: mms.ThreadCreate{}})
	require.NoError(t, err)
	reqs := messageRequests(srv)
	require.Len(t, reqs, 1)
	assert.Contains(t, reqs[0].Header.Get(wire.HeaderBeta), threadBeta)
}

// TestThreadedCreateNotResent: a threaded request leaves state behind, so
// an attempt that may have taken effect is not sent again (the error
// matches ErrMaybeApplied), while an unthreaded one is retried.
func TestThreadedCreateNotResent(t *testing.T) {
	ctx := context.Background()
	p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{mms.UserText("hi")}}
	for _, threaded := range []bool{false, true} {
		t.Run(fmt.Sprint("threaded=", threaded), func(t *testing.T) {
			c, srv := newFake(t, option.WithMaxRetries(2))
			srv.InjectFault(mmstest.Fault{Path: "/v1/messages", Statuses: []int{500}, AfterApply: true})
			q := p
			if threaded {
				q.Thread = mms.ThreadCreate{}
			}
			_, err := c.Messages.Create(ctx, q)
			if !threaded {
				require.NoError(t, err)
				assert.Len(t, messageRequests(srv), 2)
				return
			}
			require.ErrorIs(t, err, mms.ErrMaybeApplied)
			assert.Len(t, messageRequests(srv), 1)
		})
	}
}

// TestFakeThreadRules: the fake stores and continues threads and refuses
// what the service refuses, with error.details.error_code.
func TestFakeThreadRules(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	create := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 256, System: mms.SystemText("s"), Tools: mms.Tools{weatherTool},
		Messages: []mms.MessageParam{mms.UserText("What is the weather? Use get_weather.")}, Thread: mms.ThreadCreate{}}
	first, err := c.Messages.Create(ctx, create)
	require.NoError(t, err)
	require.Len(t, first.ToolUses(), 1, "the stored tools answer")
	cont := func(prev string, msgs ...mms.MessageParam) mms.MessageCreateParams {
		return mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 256, Messages: append([]mms.MessageParam{}, msgs...),
			Thread: mms.ThreadContinue{PreviousMessageID: prev}}
	}
	resultFor := func(m *mms.Message) mms.MessageParam {
		return mms.MessageParam{Role: mms.RoleUser, Content: mms.ContentBlocks{mms.ToolResultBlock{ToolUseID: m.ToolUses()[0].ID,
			Content: mms.ContentBlocks{mms.TextBlock{Text: "sunny"}}}}}
	}
	result := resultFor(first)

	t.Run("continue answers the stored conversation", func(t *testing.T) {
		// The tool_result answers a tool_use only the stored history holds.
		second, err := c.Messages.Create(ctx, cont(first.ID, result))
		require.NoError(t, err)
		assert.Contains(t, second.Text(), "sunny")
		assert.Greater(t, second.Usage.InputTokens, first.Usage.InputTokens)
		third, err := c.Messages.Create(ctx, cont(second.ID)) // no new message
		require.NoError(t, err)
		assert.NotEmpty(t, third.ID)

		_, err = c.Messages.Create(ctx, cont(first.ID, result))
		wantCode(t, err, 400, mms.ErrorCodeThreadAlreadyContinued)
	})
	t.Run("unknown and dropped threads", func(t *testing.T) {
		_, err := c.Messages.Create(ctx, cont("msg_nope", mms.UserText("hi")))
		wantCode(t, err, 404, mms.ErrorCodeThreadNotFound)

		m, err := c.Messages.Create(ctx, create)
		require.NoError(t, err)
		assert.True(t, srv.DropThread(m.ID))
		assert.False(t, srv.DropThread(m.ID))
		_, err = c.Messages.Create(ctx, cont(m.ID, mms.UserText("hi")))
		wantCode(t, err, 404, mms.ErrorCodeThreadNotFound)
	})
	t.Run("fingerprint", func(t *testing.T) {
		m, err := c.Messages.Create(ctx, create)
		require.NoError(t, err)
		q := cont(m.ID, mms.UserText("hi"))
		q.Model, q.Speed = "mms-medium-1", mms.Speed("fast")
		_, err = c.Messages.Create(ctx, q)
		e := wantCode(t, err, 400, mms.ErrorCodeThreadFingerprintMismatch)
		assert.Contains(t, e.Message, "model, speed")
		for _, tt := range []struct {
			member string
			edit   func(*mms.MessageCreateParams)
		}{
			{"inference_geo", func(q *mms.MessageCreateParams) { q.InferenceGeo = "us" }},
			{"output_config.format", func(q *mms.MessageCreateParams) {
				q.OutputConfig = &mms.OutputConfig{Format: &mms.OutputFormat{Schema: json.RawMessage(`{"type":"object"}`)}}
			}},
		} {
			q := cont(m.ID, mms.UserText("hi"))
			tt.edit(&q)
			_, err = c.Messages.Create(ctx, q)
			e := wantCode(t, err, 400, mms.ErrorCodeThreadFingerprintMismatch)
			assert.Contains(t, e.Message, tt.member)
		}
		// A refused continuation does not use the reply up; members outside
		// the fingerprint may change.
		q = cont(m.ID, resultFor(m))
		q.MaxTokens, q.StopSequences = 100, []string{"zzz"}
		_, err = c.Messages.Create(ctx, q)
		require.NoError(t, err)
	})
	t.Run("unsupported", func(t *testing.T) {
		// Through Client.Do: the SDK refuses these before sending.
		body := map[string]any{"model": "mms-large-1", "max_tokens": 2048, "thread": map[string]any{"type": "create"},
			"thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}, "fallbacks": "default",
			"messages": []any{map[string]any{"role": "user", "content": []any{
				map[string]any{"type": "text", "text": "hi", "cache_control": map[string]any{"type": "ephemeral"}}}}}}
		err := c.Do(ctx, http.MethodPost, "/v1/messages", body, nil, option.WithBeta(threadBeta, "server-side-fallback-2026-07-01"))
		e := wantCode(t, err, 400, mms.ErrorCodeThreadUnsupportedRequest)
		require.NotNil(t, e.Details)
		assert.Equal(t, []string{"cache_control", "fallbacks", "thinking"}, e.Details.Unsupported)

		body = map[string]any{"model": "mms-large-1", "max_tokens": 64, "thread": map[string]any{"type": "create"},
			"messages": []any{map[string]any{"role": "user", "content": "hi"}}}
		require.NoError(t, c.Do(ctx, http.MethodPost, "/v1/messages", body, nil, option.WithBeta(threadBeta)))
	})
	t.Run("continue with system or tools", func(t *testing.T) {
		m, err := c.Messages.Create(ctx, create)
		require.NoError(t, err)
		for _, member := range []string{"system", "tools"} {
			body := map[string]any{"model": "mms-large-1", "max_tokens": 64,
				"thread":   map[string]any{"type": "continue", "previous_message_id": m.ID},
				"messages": []any{map[string]any{"role": "user", "content": "hi"}}}
			body[member] = map[string]any{"system": "s", "tools": []any{map[string]any{"name": "x", "input_schema": map[string]any{"type": "object"}}}}[member]
			err := c.Do(ctx, http.MethodPost, "/v1/messages", body, nil, option.WithBeta(threadBeta))
			wantFakeRefusal(t, err, member+": must be omitted")
		}
	})
	t.Run("beta, and messages [] only to continue", func(t *testing.T) {
		body := map[string]any{"model": "mms-large-1", "max_tokens": 64, "thread": map[string]any{"type": "create"},
			"messages": []any{map[string]any{"role": "user", "content": "hi"}}}
		err := c.Do(ctx, http.MethodPost, "/v1/messages", body, nil)
		wantFakeRefusal(t, err, "thread")
		body["messages"] = []any{}
		err = c.Do(ctx, http.MethodPost, "/v1/messages", body, nil, option.WithBeta(threadBeta))
		wantFakeRefusal(t, err, "messages: List should have at least 1 item")
	})
	t.Run("in flight", func(t *testing.T) {
		m, err := c.Messages.Create(ctx, create)
		require.NoError(t, err)
		srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", StallAfterEvents: 1, Stall: 2 * time.Second, Times: 1})
		result := resultFor(m)
		next, stop := iter.Pull2(c.Messages.Stream(ctx, cont(m.ID, result)))
		defer stop()
		_, err = second(next())
		require.NoError(t, err) // message_start: the continuation is being answered
		_, err = c.Messages.Create(ctx, cont(m.ID, result))
		wantCode(t, err, 400, mms.ErrorCodeThreadContinueInFlight)
		srv.ClearFaults()
		for {
			_, err, ok := next()
			if !ok {
				break
			}
			require.NoError(t, err)
		}
		_, err = c.Messages.Create(ctx, cont(m.ID, result))
		wantCode(t, err, 400, mms.ErrorCodeThreadAlreadyContinued)
	})
}

func second[A, B any](a A, b B, _ bool) (A, B) { return a, b }

// TestMessageThreadTurns: nothing is sent before the first turn; the first
// creates with everything, the next continue with only new messages and no
// system or tools; the history and id follow.
func TestMessageThreadTurns(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	th := c.Messages.NewThread(threadParams())
	assert.Empty(t, srv.Requests())
	assert.Empty(t, th.PreviousMessageID())
	assert.Empty(t, th.ID())

	r1, err := th.Send(ctx, mms.UserText("What is the weather in Oslo? Use get_weather."))
	require.NoError(t, err)
	require.Len(t, r1.ToolUses(), 1)
	assert.Equal(t, r1.ID, th.PreviousMessageID())
	assert.Equal(t, r1.ID, th.ID())
	r2, err := th.Send(ctx, mms.MessageParam{Role: mms.RoleUser, Content: mms.ContentBlocks{
		mms.ToolResultBlock{ToolUseID: r1.ToolUses()[0].ID, Content: mms.ContentBlocks{mms.TextBlock{Text: "rain"}}}}})
	require.NoError(t, err)
	assert.Contains(t, r2.Text(), "rain")
	_, err = th.Send(ctx, mms.UserText("Thanks"))
	require.NoError(t, err)

	reqs := messageRequests(srv)
	require.Len(t, reqs, 3)
	b1, b2, b3 := decodeThreadBody(t, reqs[0].Body), decodeThreadBody(t, reqs[1].Body), decodeThreadBody(t, reqs[2].Body)
	assert.Equal(t, "create", b1.threadKind())
	assert.NotEmpty(t, b1.System)
	assert.NotEmpty(t, b1.Tools)
	assert.Len(t, b1.Messages, 1)
	for i, b := range []threadBody{b2, b3} {
		assert.Equal(t, "continue", b.threadKind(), i)
		assert.Empty(t, b.System)
		assert.Empty(t, b.Tools)
		assert.Len(t, b.Messages, 1, "only the new message")
	}
	assert.Equal(t, r1.ID, b2.Thread.PreviousMessageID)
	assert.Equal(t, r2.ID, b3.Thread.PreviousMessageID)
	for _, r := range reqs {
		assert.Contains(t, r.Header.Get(wire.HeaderBeta), threadBeta)
	}
	h := th.History()
	require.Len(t, h, 6)
	assert.Equal(t, mms.RoleAssistant, h[5].Role)
	assert.True(t, th.Threaded())
}

// TestMessageThreadParams: system and tools cannot change on a thread;
// Fork starts a new one with the same history; a model change starts a
// new thread; bad parameters are refused.
func TestMessageThreadParams(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	th := c.Messages.NewThread(threadParams())
	_, err := th.Send(ctx, mms.UserText("hi"))
	require.NoError(t, err)

	var ve *mms.ValidationError
	p := th.Params()
	p.System = mms.SystemText("Answer at length.")
	require.True(t, errors.As(th.SetParams(p), &ve))
	assert.Equal(t, "system", ve.Field)
	p = th.Params()
	p.Tools = nil
	require.True(t, errors.As(th.SetParams(p), &ve))
	assert.Equal(t, "tools", ve.Field)
	p = th.Params()
	p.Messages = []mms.MessageParam{mms.UserText("x")}
	require.True(t, errors.As(th.SetParams(p), &ve))
	assert.Equal(t, "messages", ve.Field)

	p = th.Params()
	p.MaxTokens = 128
	require.NoError(t, th.SetParams(p))
	assert.NotEmpty(t, th.PreviousMessageID(), "max_tokens keeps the thread")
	p.Model = "mms-medium-1"
	require.NoError(t, th.SetParams(p))
	assert.Empty(t, th.PreviousMessageID(), "a model change starts a new thread")

	p.System = mms.SystemText("Answer at length.")
	fork, err := th.Fork(p)
	require.NoError(t, err)
	srv.ResetRequests()
	_, err = fork.Send(ctx, mms.UserText("more"))
	require.NoError(t, err)
	b := decodeThreadBody(t, messageRequests(srv)[0].Body)
	assert.Equal(t, "create", b.threadKind())
	assert.JSONEq(t, `"Answer at length."`, string(b.System))
	assert.Len(t, b.Messages, 3)
	assert.Len(t, th.History(), 2, "the original is unchanged")

	bad := threadParams()
	bad.Thread = mms.ThreadCreate{}
	_, err = c.Messages.NewThread(bad).Send(ctx, mms.UserText("hi"))
	require.True(t, errors.As(err, &ve))
	assert.Equal(t, "thread", ve.Field)
}

// TestMessageThreadStripsCacheControl: a create that replays the history
// sends the answered messages without their breakpoints; History keeps
// them. A breakpoint in a new message is refused before sending.
func TestMessageThreadStripsCacheControl(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	cached := mms.MessageParam{Role: mms.RoleUser, Content: mms.ContentBlocks{mms.TextBlock{Text: "A long document.", CacheControl: &mms.CacheControl{}}}}
	p := threadParams()
	p.Messages = []mms.MessageParam{cached, {Role: mms.RoleAssistant, Content: mms.ContentBlocks{mms.TextBlock{Text: "Noted."}}}}
	th := c.Messages.NewThread(p)
	_, err := th.Send(ctx, mms.UserText("Summarize it."))
	require.NoError(t, err)
	reqs := messageRequests(srv)
	require.Len(t, reqs, 1)
	assert.NotContains(t, string(reqs[0].Body), "cache_control")
	assert.Contains(t, string(reqs[0].Body), "A long document.")
	assert.Equal(t, cached, th.History()[0])

	_, err = th.Send(ctx, cached)
	var ve *mms.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, "messages[0].content[0].cache_control", ve.Field)
	assert.Len(t, messageRequests(srv), 1, "nothing sent")
	assert.Len(t, th.History(), 4)
}

// TestMessageThreadRefusal: a refused turn is left out of the history and
// the next turn creates a new thread.
func TestMessageThreadRefusal(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	th := c.Messages.NewThread(threadParams())
	_, err := th.Send(ctx, mms.UserText("hi"))
	require.NoError(t, err)
	srv.Script(mmstest.Turn{Text: "I can't help with that.", StopReason: "refusal"})
	r, err := th.Send(ctx, mms.UserText("something else"))
	require.NoError(t, err)
	assert.Equal(t, mms.StopReasonRefusal, r.StopReason)
	assert.Len(t, th.History(), 2)
	assert.Empty(t, th.PreviousMessageID())
	assert.Equal(t, r.ID, th.ID())
	_, err = th.Send(ctx, mms.UserText("rephrased"))
	require.NoError(t, err)
	reqs := messageRequests(srv)
	b := decodeThreadBody(t, reqs[len(reqs)-1].Body)
	assert.Equal(t, "create", b.threadKind())
	assert.Len(t, b.Messages, 3)
}

// TestMessageThreadFallbackModel: after a reply a fallback model served,
// the next turn creates a new thread.
func TestMessageThreadFallbackModel(t *testing.T) {
	ctx := context.Background()
	var once sync.Once
	// The fake serves no fallbacks: the first reply is given a
	// fallback_message iteration on its way back.
	mark := option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err != nil || resp.StatusCode != 200 {
			return resp, err
		}
		once.Do(func() {
			body, _ := io.ReadAll(resp.Body)
			var m map[string]any
			_ = json.Unmarshal(body, &m)
			m["usage"].(map[string]any)["iterations"] = []any{
				map[string]any{"type": "message", "model": "mms-large-1", "input_tokens": 1, "output_tokens": 1},
				map[string]any{"type": "fallback_message", "model": "mms-medium-1", "input_tokens": 1, "output_tokens": 1}}
			body, _ = json.Marshal(m)
			resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			resp.Header.Del("Content-Length")
		})
		return resp, nil
	})
	c, srv := newFake(t, mark)
	th := c.Messages.NewThread(threadParams())
	_, err := th.Send(ctx, mms.UserText("hi"))
	require.NoError(t, err)
	assert.Empty(t, th.PreviousMessageID())
	_, err = th.Send(ctx, mms.UserText("again"))
	require.NoError(t, err)
	assert.NotEmpty(t, th.PreviousMessageID())
	reqs := messageRequests(srv)
	require.Len(t, reqs, 2)
	assert.Equal(t, "create", decodeThreadBody(t, reqs[1].Body).threadKind())
}

// TestMessageThreadStream: a streamed turn is recorded like a sent one; a
// stream cut before message_stop keeps the partial reply and the next turn
// creates a new thread; leaving the loop early does the same.
func TestMessageThreadStream(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
	ctx := context.Background()
	c, srv := newFake(t)
	th := c.Messages.NewThread(threadParams())

	var acc mms.MessageAccumulator
	for text, err := range acc.Text(th.Stream(ctx, mms.UserText("hello there"))) {
		require.NoError(t, err)
		_ = text
	}
	assert.Equal(t, acc.Message().ID, th.PreviousMessageID())

	srv.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", CutAfterEvents: 5, Times: 1})
	var err error
	for _, e := range th.Stream(ctx, mms.UserText("a second question")) {
		if e != nil {
			err = e
		}
	}
	require.ErrorIs(t, err, mms.ErrStreamTruncated)
	assert.Empty(t, th.PreviousMessageID())
	h := th.History()
	require.Len(t, h, 4)
	assert.Equal(t, mms.RoleAssistant, h[3].Role, "the partial reply is kept")

	for range th.Stream(ctx, mms.UserText("third")) {
		break // leave early: partial again
	}
	assert.Empty(t, th.PreviousMessageID())
	r, err := th.Send(ctx, mms.UserText("fourth"))
	require.NoError(t, err)
	reqs := messageRequests(srv)
	b := decodeThreadBody(t, reqs[len(reqs)-1].Body)
	assert.Equal(t, "create", b.threadKind())
	assert.Len(t, b.Messages, len(th.History())-1)
	assert.Equal(t, r.ID, th.PreviousMessageID())

	seq := th.Stream(ctx)
	for range seq {
	}
	for _, err := range seq {
		require.Error(t, err, "single use")
	}
}

// TestMessageThreadRecovers: a continuation the service cannot take
// (thread_not_found, thread_already_continued) is sent again at once as a
// create with the full history.
func TestMessageThreadRecovers(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		breakIt func(t *testing.T, c *mms.Client, srv *mmstest.Server, id string)
	}{
		{"thread_not_found", func(t *testing.T, _ *mms.Client, srv *mmstest.Server, id string) { require.True(t, srv.DropThread(id)) }},
		{"thread_already_continued", func(t *testing.T, c *mms.Client, _ *mmstest.Server, id string) {
			_, err := c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64,
				Messages: []mms.MessageParam{mms.UserText("elsewhere")}, Thread: mms.ThreadContinue{PreviousMessageID: id}})
			require.NoError(t, err)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t)
			th := c.Messages.NewThread(threadParams())
			r1, err := th.Send(ctx, mms.UserText("one"))
			require.NoError(t, err)
			tt.breakIt(t, c, srv, r1.ID)
			srv.ResetRequests()
			r2, err := th.Send(ctx, mms.UserText("two"))
			require.NoError(t, err)
			reqs := messageRequests(srv)
			require.Len(t, reqs, 2)
			assert.Equal(t, "continue", decodeThreadBody(t, reqs[0].Body).threadKind())
			b := decodeThreadBody(t, reqs[1].Body)
			assert.Equal(t, "create", b.threadKind())
			assert.Len(t, b.Messages, 3)
			assert.NotEmpty(t, b.System)
			assert.Equal(t, r2.ID, th.PreviousMessageID())
			assert.Len(t, th.History(), 4)
		})
	}
}

// scriptedServer answers POST /v1/messages with the given answers in turn
// (status, body) and records the bodies; after them, a plain reply.
func scriptedServer(t *testing.T, answers ...[2]string) (*mms.Client, *[]threadBody) {
	var mu sync.Mutex
	var bodies []threadBody
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, decodeThreadBody(t, data))
		i := n
		n++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if i < len(answers) {
			var status int
			fmt.Sscan(answers[i][0], &status)
			w.WriteHeader(status)
			io.WriteString(w, answers[i][1])
			return
		}
		fmt.Fprintf(w, `{"id":"msg_%d","type":"message","role":"assistant","model":"mms-large-1","content":[{"type":"text","text":"ok"}],`+
			`"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, i)
	}))
	t.Cleanup(srv.Close)
	c, err := mms.NewClient(option.WithAPIKey("k"), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
	require.NoError(t, err)
	return c, &bodies
}

func codedBody(status int, code string) [2]string {
	typ := map[int]string{400: "invalid_request_error", 404: "not_found_error", 500: "api_error"}[status]
	return [2]string{fmt.Sprint(status), fmt.Sprintf(`{"type":"error","error":{"type":%q,"message":"m","details":{"error_code":%q}}}`, typ, code)}
}

// TestMessageThreadFallbackChain: which answers lead to which resend, at
// most three requests a turn, and nothing resent after an unknown outcome.
func TestMessageThreadFallbackChain(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name       string
		answers    [][2]string // of the second turn (the first is answered ok)
		unthreaded bool        // SetUnthreadedFallback
		want       []string    // the second turn's requests' thread kinds
		wantErr    mms.ErrorCode
		nextTurn   string // the third turn's first request
	}{
		{"not_found", [][2]string{codedBody(404, "thread_not_found")}, false, []string{"continue", "create"}, "", "continue"},
		{"already_continued", [][2]string{codedBody(400, "thread_already_continued")}, false, []string{"continue", "create"}, "", "continue"},
		{"in_flight", [][2]string{codedBody(400, "thread_continue_in_flight")}, false, []string{"continue", "create"}, "", "continue"},
		{"fingerprint is returned", [][2]string{codedBody(400, "thread_fingerprint_mismatch")}, false, []string{"continue"}, "thread_fingerprint_mismatch", "continue"},
		{"unsupported is returned", [][2]string{codedBody(400, "thread_unsupported_request")}, false, []string{"continue"}, "thread_unsupported_request", "continue"},
		{"unsupported goes unthreaded", [][2]string{codedBody(400, "thread_unsupported_request")}, true, []string{"continue", ""}, "", ""},
		{"three at most", [][2]string{codedBody(404, "thread_not_found"), codedBody(400, "thread_unsupported_request")}, true,
			[]string{"continue", "create", ""}, "", ""},
		{"not_found twice is returned", [][2]string{codedBody(404, "thread_not_found"), codedBody(404, "thread_not_found")}, false,
			[]string{"continue", "create"}, "thread_not_found", "create"},
		{"an unknown outcome is not resent", [][2]string{codedBody(500, "")}, false, []string{"continue"}, "-", "create"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			answers := append([][2]string{{"200", `{"id":"msg_first","type":"message","role":"assistant","model":"mms-large-1",` +
				`"content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`}},
				tt.answers...)
			c, bodies := scriptedServer(t, answers...)
			th := c.Messages.NewThread(threadParams())
			th.SetUnthreadedFallback(tt.unthreaded)
			_, err := th.Send(ctx, mms.UserText("one"))
			require.NoError(t, err)
			_, err = th.Send(ctx, mms.UserText("two"))
			switch tt.wantErr {
			case "":
				require.NoError(t, err)
			case "-":
				require.Error(t, err)
			default:
				status := 400
				if tt.wantErr == mms.ErrorCodeThreadNotFound {
					status = 404
				}
				wantCode(t, err, status, tt.wantErr)
			}
			var kinds []string
			for _, b := range (*bodies)[1:] {
				kinds = append(kinds, b.threadKind())
			}
			assert.Equal(t, tt.want, kinds)
			assert.Equal(t, !tt.unthreaded || tt.wantErr != "", th.Threaded())

			_, _ = th.Send(ctx, mms.UserText("three"))
			last := (*bodies)[1+len(tt.want)]
			assert.Equal(t, tt.nextTurn, last.threadKind())
			if tt.nextTurn != "continue" {
				assert.Len(t, last.Messages, len(th.History())-1)
			}
		})
	}
}

// TestMessageThreadMaybeApplied: a continuation that may have taken effect
// is not sent again as a create; the next turn creates.
func TestMessageThreadMaybeApplied(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t, option.WithMaxRetries(2))
	th := c.Messages.NewThread(threadParams())
	_, err := th.Send(ctx, mms.UserText("one"))
	require.NoError(t, err)
	srv.InjectFault(mmstest.Fault{Path: "/v1/messages", Statuses: []int{500}, AfterApply: true})
	srv.ResetRequests()
	_, err = th.Send(ctx, mms.UserText("two"))
	require.ErrorIs(t, err, mms.ErrMaybeApplied)
	assert.Len(t, messageRequests(srv), 1)
	assert.Len(t, th.History(), 2, "the failed turn is not recorded")
	assert.Empty(t, th.PreviousMessageID())
	_, err = th.Send(ctx, mms.UserText("two"))
	require.NoError(t, err)
	reqs := messageRequests(srv)
	require.Len(t, reqs, 2)
	assert.Equal(t, "create", decodeThreadBody(t, reqs[1].Body).threadKind())
}

// TestMessageThreadUnsupportedLocally: parameters a thread cannot carry are
// refused before sending, or, with the fallback, sent unthreaded with the
// full history from then on.
func TestMessageThreadUnsupportedLocally(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	p := threadParams()
	p.MaxTokens, p.Thinking = 2048, mms.ThinkingConfigEnabled{BudgetTokens: 1024}
	th := c.Messages.NewThread(p)
	_, err := th.Send(ctx, mms.UserText("one"))
	var ve *mms.ValidationError
	require.True(t, errors.As(err, &ve), "%v", err)
	assert.Equal(t, "thinking", ve.Field)
	assert.Empty(t, srv.Requests())

	th.SetUnthreadedFallback(true)
	_, err = th.Send(ctx, mms.UserText("one"))
	require.NoError(t, err)
	_, err = th.Send(ctx, mms.UserText("two"))
	require.NoError(t, err)
	assert.False(t, th.Threaded())
	reqs := messageRequests(srv)
	require.Len(t, reqs, 2)
	for i, r := range reqs {
		b := decodeThreadBody(t, r.Body)
		assert.Nil(t, b.Thread)
		assert.Len(t, b.Messages, 1+2*i)
		assert.NotContains(t, r.Header.Get(wire.HeaderBeta), threadBeta)
	}
}

// TestMessageThreadContainer: later turns reuse the container of the last
// reply, unless the parameters name one.
func TestMessageThreadContainer(t *testing.T) {
	ctx := context.Background()
	c, srv := newFake(t)
	p := threadParams()
	p.Tools = append(p.Tools, mms.CodeExecutionTool{Version: mms.CodeExecution20250825})
	th := c.Messages.NewThread(p)
	r1, err := th.Send(ctx, mms.UserText("one"))
	require.NoError(t, err)
	require.NotNil(t, r1.Container)
	_, err = th.Send(ctx, mms.UserText("two"))
	require.NoError(t, err)
	reqs := messageRequests(srv)
	assert.Empty(t, decodeThreadBody(t, reqs[0].Body).Container)
	assert.JSONEq(t, `"`+r1.Container.ID+`"`, string(decodeThreadBody(t, reqs[1].Body).Container))
}

// TestMessageThreadConcurrentTurns: a second turn while one is in progress
// fails with ErrMessageThreadBusy and changes nothing.
func TestMessageThreadConcurrentTurns(t *testing.T) {
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
	ctx := context.Background()
	c, _ := newFake(t)
	th := c.Messages.NewThread(threadParams())
	next, stop := iter.Pull2(th.Stream(ctx, mms.UserText("one")))
	_, err := second(next())
	require.NoError(t, err)
	_, err = th.Send(ctx, mms.UserText("two"))
	require.ErrorIs(t, err, mms.ErrMessageThreadBusy)
	for _, err := range th.Stream(ctx, mms.UserText("two")) {
		require.ErrorIs(t, err, mms.ErrMessageThreadBusy)
	}
	require.ErrorIs(t, th.SetParams(threadParams()), mms.ErrMessageThreadBusy)
	for {
		_, err, ok := next()
		if !ok {
			break
		}
		require.NoError(t, err)
	}
	stop()
	assert.Len(t, th.History(), 2)
	_, err = th.Send(ctx, mms.UserText("two"))
	require.NoError(t, err)
}

// TestMessageThreadPlatform: a platform client cannot use threads.
func TestMessageThreadPlatform(t *testing.T) {
	c, err := mms.NewClient(option.WithPlatform(&testCloud{base: "https://cloud.example.com"}))
	require.NoError(t, err)
	th := c.Messages.NewThread(threadParams())
	_, err = th.Send(context.Background(), mms.UserText("hi"))
	require.ErrorIs(t, err, platform.ErrUnsupported)
	assert.True(t, strings.Contains(err.Error(), "Test Cloud"), err.Error())
}
