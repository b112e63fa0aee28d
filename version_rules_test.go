package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// versionCase is one request shape API version 2026-10-21 refuses: field is
// the SDK's ValidationError field, fake the fake's message prefix.
type versionCase struct {
	name  string
	edit  func(*mms.MessageCreateParams)
	field string
	fake  string
}

func versionCases() []versionCase {
	cite := mms.Citations{mms.CharLocationCitation{CitedText: "Go is simple.", StartCharIndex: 0, EndCharIndex: 13}}
	return []versionCase{
		{"temperature", func(p *mms.MessageCreateParams) { p.Temperature = mms.Ptr(0.5) }, "temperature", "temperature: Extra inputs"},
		{"temperature at its default", func(p *mms.MessageCreateParams) { p.Temperature = mms.Ptr(1.0) }, "temperature", "temperature: Extra inputs"},
		{"temperature zero", func(p *mms.MessageCreateParams) { p.Temperature = mms.Ptr(0.0) }, "temperature", "temperature: Extra inputs"},
		{"top_p", func(p *mms.MessageCreateParams) { p.TopP = mms.Ptr(0.9) }, "top_p", "top_p: Extra inputs"},
		{"top_k", func(p *mms.MessageCreateParams) { p.TopK = mms.Ptr(5) }, "top_k", "top_k: Extra inputs"},
		{"document in an assistant turn", func(p *mms.MessageCreateParams) {
			p.Messages = []mms.MessageParam{mms.UserText("summarize"),
				mms.AssistantMessage(mms.TextDocument("Go is simple.")), mms.UserText("go on")}
		}, "messages[1].content[0]", "messages.1.content.0: a document block"},
		{"user text with citations", func(p *mms.MessageCreateParams) {
			p.Messages = []mms.MessageParam{mms.UserMessage(mms.TextDocument("Go is simple."),
				mms.TextBlock{Text: "you said", Citations: cite})}
		}, "messages[0].content[1].citations", "messages.0.content.1.citations: citations are not allowed"},
	}
}

func versionBase() mms.MessageCreateParams {
	return mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: []mms.MessageParam{mms.UserText("hi")}}
}

// TestVersion20261021Refusals: each shape is sent under 2023-06-01, refused
// before sending under 2026-10-21 (Create, Stream, a batch item), and
// refused by the fake alike when the SDK's check is bypassed (Client.Do).
func TestVersion20261021Refusals(t *testing.T) {
	ctx := context.Background()
	v2 := option.WithVersion(mms.APIVersion20261021)
	for _, tt := range versionCases() {
		t.Run(tt.name, func(t *testing.T) {
			p := versionBase()
			tt.edit(&p)

			old, _ := newFake(t)
			_, err := old.Messages.Create(ctx, p)
			require.NoError(t, err, "2023-06-01 accepts it")

			c, srv := newFake(t, v2)
			wantVersionRefusal(t, tt.field, func() error { _, err := c.Messages.Create(ctx, p); return err })
			wantVersionRefusal(t, tt.field, func() error {
				for _, err := range c.Messages.Stream(ctx, p) {
					return err
				}
				return nil
			})
			// Per call too, on a client of the old version.
			wantVersionRefusal(t, tt.field, func() error { _, err := old.Messages.Create(ctx, p, v2); return err })
			wantVersionRefusal(t, "requests[1].params."+tt.field, func() error {
				_, err := c.Messages.Batches.Create(ctx, mms.BatchCreateParams{Requests: []mms.BatchRequest{
					{CustomID: "a", Params: versionBase()}, {CustomID: "b", Params: p}}})
				return err
			})
			assert.Empty(t, srv.Requests(), "nothing is sent")

			// The fake refuses the same body on its own.
			var raw json.RawMessage
			err = c.Do(ctx, http.MethodPost, "/v1/messages", &p, &raw)
			wantFakeRefusal(t, err, tt.fake)
			batch := map[string]any{"requests": []any{
				map[string]any{"custom_id": "a", "params": versionBase()}, map[string]any{"custom_id": "b", "params": &p}}}
			err = c.Do(ctx, http.MethodPost, "/v1/messages/batches", batch, &raw)
			wantFakeRefusal(t, err, "requests.1.params."+tt.fake)
		})
	}
}

// TestVersion20261021CountTokens: count_tokens carries the block rules.
func TestVersion20261021CountTokens(t *testing.T) {
	ctx := context.Background()
	for _, tt := range versionCases()[5:] {
		t.Run(tt.name, func(t *testing.T) {
			p := versionBase()
			tt.edit(&p)
			cp := mms.MessageCountTokensParams{Model: p.Model, Messages: p.Messages}
			old, _ := newFake(t)
			_, err := old.Messages.CountTokens(ctx, cp)
			require.NoError(t, err)
			c, srv := newFake(t, option.WithVersion(mms.APIVersion20261021))
			wantVersionRefusal(t, tt.field, func() error { _, err := c.Messages.CountTokens(ctx, cp); return err })
			assert.Empty(t, srv.Requests())
			var raw json.RawMessage
			wantFakeRefusal(t, c.Do(ctx, http.MethodPost, "/v1/messages/count_tokens", &cp, &raw), tt.fake)
		})
	}
}

// TestVersion20261021Accepts: what the rules leave alone goes through under
// the new version (a document in a user turn, citations on an assistant
// turn's text, an empty citations list), and the header says 2026-10-21.
func TestVersion20261021Accepts(t *testing.T) {
	ctx := context.Background()
	cite := mms.Citations{mms.CharLocationCitation{CitedText: "Go is simple.", StartCharIndex: 0, EndCharIndex: 13}}
	tests := []struct {
		name     string
		messages []mms.MessageParam
	}{
		{"plain", []mms.MessageParam{mms.UserText("hi")}},
		{"document in a user turn", []mms.MessageParam{mms.UserMessage(mms.TextDocument("Go is simple."), mms.TextBlock{Text: "summarize"})}},
		{"cited assistant text", []mms.MessageParam{mms.UserMessage(mms.TextDocument("Go is simple."), mms.TextBlock{Text: "quote it"}),
			mms.AssistantMessage(mms.TextBlock{Text: "It says so.", Citations: cite}), mms.UserText("thanks")}},
		{"empty citations on user text", []mms.MessageParam{mms.UserMessage(mms.TextBlock{Text: "hi", Citations: mms.Citations{}})}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t, option.WithVersion(mms.APIVersion20261021))
			_, err := c.Messages.Create(ctx, mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 64, Messages: tt.messages})
			require.NoError(t, err)
			reqs := srv.Requests()
			require.Len(t, reqs, 1)
			assert.Equal(t, "2026-10-21", reqs[0].Header.Get("Vendor-Version"))
		})
	}
}

func wantVersionRefusal(t *testing.T, field string, do func() error) {
	t.Helper()
	err := do()
	var ve *mms.ValidationError
	require.True(t, errors.As(err, &ve), "want a *ValidationError, got %v", err)
	assert.Equal(t, field, ve.Field)
	assert.Contains(t, ve.Rule, "API version 2026-10-21")
	assert.ErrorIs(t, err, mms.ErrInvalidParams)
}

func wantFakeRefusal(t *testing.T, err error, msg string) {
	t.Helper()
	var apiErr *mms.Error
	require.True(t, errors.As(err, &apiErr), "want an *mms.Error, got %v", err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Contains(t, apiErr.Message, msg)
}
