package langchaingo

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

var hello = []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "Tell me a long story about a dragon")}

// A streamed answer: text deltas reach the streaming func, thinking deltas
// the reasoning func, and the response equals the non-streamed one, usage
// counted once.
func TestStream(t *testing.T) {
	llm, srv := newLLM(t)
	ctx := context.Background()
	think := llms.WithThinkingBudget(mms.MinThinkingBudget)
	want, err := llm.GenerateContent(ctx, hello, think)
	require.NoError(t, err)

	var text, reasoning, reasoningText strings.Builder
	var chunks int
	got, err := llm.GenerateContent(ctx, hello, think,
		llms.WithStreamingFunc(func(_ context.Context, chunk []byte) error {
			chunks++
			text.Write(chunk)
			return nil
		}),
		llms.WithStreamingReasoningFunc(func(_ context.Context, r, chunk []byte) error {
			assert.False(t, len(r) > 0 && len(chunk) > 0, "one kind per call")
			reasoning.Write(r)
			reasoningText.Write(chunk)
			return nil
		}))
	require.NoError(t, err)
	assert.Greater(t, chunks, 1, "the text comes in pieces")
	assert.Equal(t, got.Choices[0].Content, text.String())
	assert.Equal(t, got.Choices[0].Content, reasoningText.String())
	assert.Equal(t, got.Choices[0].ReasoningContent, reasoning.String())

	reqs := messageRequests(t, srv)
	require.Len(t, reqs, 2)
	assert.False(t, reqs[0].Stream)
	assert.True(t, reqs[1].Stream)

	// The same reply either way, but for the ids; usage once, as sent.
	w, g := want.Choices[0], got.Choices[0]
	for _, k := range []string{InfoRequestID, InfoMessageID, InfoBlocks} {
		delete(w.GenerationInfo, k)
		delete(g.GenerationInfo, k)
	}
	assert.Equal(t, w.GenerationInfo, g.GenerationInfo)
	w.GenerationInfo, g.GenerationInfo = nil, nil
	assert.Equal(t, w, g)
}

// The request id of a stream is the response's.
func TestStreamRequestID(t *testing.T) {
	llm, srv := newLLM(t)
	resp, err := llm.GenerateContent(context.Background(), hello, llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
	require.NoError(t, err)
	assert.Equal(t, requestIDs(srv), []string{resp.Choices[0].GenerationInfo[InfoRequestID].(string)})
}

// Only the reasoning func: the call streams too.
func TestStreamReasoningFuncAlone(t *testing.T) {
	llm, srv := newLLM(t)
	var n int
	_, err := llm.GenerateContent(context.Background(), hello, llms.WithStreamingReasoningFunc(func(context.Context, []byte, []byte) error {
		n++
		return nil
	}))
	require.NoError(t, err)
	assert.Positive(t, n)
	assert.True(t, messageRequests(t, srv)[0].Stream)
}

// A streaming func's error stops the stream early: it is returned, and the
// connection is released (goleak checks no reader is left behind).
func TestStreamStoppedByFunc(t *testing.T) {
	errStop := errors.New("enough")
	for _, tc := range []struct {
		name string
		opt  func(n *int) llms.CallOption
		want string
	}{
		{"streaming func", func(n *int) llms.CallOption {
			return llms.WithStreamingFunc(func(context.Context, []byte) error { *n++; return errStop })
		}, "streaming func: enough"},
		{"reasoning func", func(n *int) llms.CallOption {
			return llms.WithStreamingReasoningFunc(func(context.Context, []byte, []byte) error { *n++; return errStop })
		}, "streaming reasoning func: enough"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm, _ := newLLM(t)
			var n int
			_, err := llm.GenerateContent(context.Background(), hello, tc.opt(&n))
			require.ErrorIs(t, err, errStop)
			assert.ErrorContains(t, err, tc.want)
			assert.Equal(t, 1, n, "nothing after the error")
		})
	}
}

// Cancelling the context mid-stream ends the call with the context's error.
func TestStreamCancel(t *testing.T) {
	llm, _ := newLLM(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var n int
	_, err := llm.GenerateContent(ctx, hello, llms.WithStreamingFunc(func(context.Context, []byte) error {
		n++
		cancel()
		return nil
	}))
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 1, n)
}

// A stream that stalls is cancelled by the caller's deadline.
func TestStreamDeadlineWhileStalled(t *testing.T) {
	llm, srv := newLLM(t)
	srv.InjectStreamFault(mmstest.StreamFault{StallAfterEvents: 3, Stall: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := llm.GenerateContent(ctx, hello, llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// Errors after the stream started come back once, as the SDK yields them.
func TestStreamMidStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault mmstest.StreamFault
		check func(t *testing.T, err error)
	}{
		{"error event", mmstest.StreamFault{ErrorAfterEvents: 4}, func(t *testing.T, err error) {
			var apiErr *mms.Error
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 200, apiErr.StatusCode)
			assert.ErrorIs(t, err, mms.ErrOverloaded)
		}},
		{"cut connection", mmstest.StreamFault{CutAfterEvents: 4}, func(t *testing.T, err error) {
			require.Error(t, err)
			var apiErr *mms.Error
			assert.False(t, errors.As(err, &apiErr))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			llm, srv := newLLM(t, WithRequestOptions(option.WithMaxRetries(0)))
			srv.InjectStreamFault(tc.fault)
			var text strings.Builder
			resp, err := llm.GenerateContent(context.Background(), hello, llms.WithStreamingFunc(func(_ context.Context, c []byte) error {
				text.Write(c)
				return nil
			}))
			assert.Nil(t, resp)
			tc.check(t, err)
			assert.NotEmpty(t, text.String(), "what arrived before the fault was streamed")
		})
	}
}
