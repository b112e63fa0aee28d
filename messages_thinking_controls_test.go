package mms_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// TestThinkingControls: between_tools, display "updates" and block_binding
// encode as the wire has them, add their betas, and the fake accepts them.
func TestThinkingControls(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		thinking mms.ThinkingConfig
		wire     string
		betas    []string
	}{
		{"between tools", mms.ThinkingConfigBetweenTools{}, `{"type":"between_tools"}`, nil},
		{"display updates", mms.ThinkingConfigAdaptive{Display: mms.ThinkingDisplayUpdates},
			`{"type":"adaptive","display":"updates"}`, []string{"thinking-display-updates-2026-08-18"}},
		{"block binding", mms.ThinkingConfigEnabled{BudgetTokens: 1024, BlockBinding: &mms.ThinkingBlockBinding{PrefixMismatchBehavior: mms.PrefixMismatchDropBlock}},
			`{"type":"enabled","budget_tokens":1024,"block_binding":{"prefix_mismatch_behavior":"drop_block"}}`, []string{"thinking-binding-controls-2026-08-01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := newFake(t)
			p := mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 2048, Messages: []mms.MessageParam{mms.UserText("hi")}, Thinking: tt.thinking}
			_, err := c.Messages.Create(ctx, p)
			require.NoError(t, err)
			reqs := srv.Requests()
			require.Len(t, reqs, 1)
			var body struct{ Thinking json.RawMessage }
			require.NoError(t, json.Unmarshal(reqs[0].Body, &body))
			assert.JSONEq(t, tt.wire, string(body.Thinking))
			for _, b := range tt.betas {
				assert.Contains(t, reqs[0].Header.Get(wire.HeaderBeta), b)
			}
			// Decoding gives the same config back.
			var back mms.MessageCreateParams
			require.NoError(t, json.Unmarshal(reqs[0].Body, &back))
			assert.Equal(t, tt.thinking, back.Thinking)
		})
	}
	// The fake gates block_binding on its beta.
	c, _ := newFake(t)
	var raw json.RawMessage
	err := c.Do(ctx, http.MethodPost, "/v1/messages", json.RawMessage(`{"model":"mms-large-1","max_tokens":2048,`+
		`"thinking":{"type":"adaptive","block_binding":{"prefix_mismatch_behavior":"error"}},"messages":[{"role":"user","content":"hi"}]}`), &raw)
	wantFakeRefusal(t, err, "thinking-binding-controls-2026-08-01")
}
