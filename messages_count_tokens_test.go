package mms_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go"

	"github.com/stretchr/testify/require"
)

// TestMessageTokensCountRoundTrip: a count_tokens answer re-encodes to the
// JSON it came from, members this SDK does not model and explicit nulls
// included, at the top level and inside context_management alike.
func TestMessageTokensCountRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want mms.MessageTokensCount
	}{
		{"context management with unknown members",
			`{"input_tokens":12,"context_management":{"original_input_tokens":20,"cleared":{"tool_uses":3},"note":null}}`,
			mms.MessageTokensCount{InputTokens: 12, ContextManagement: &mms.TokensCountContextManagement{
				OriginalInputTokens: 20,
				Extra:               map[string]json.RawMessage{"cleared": json.RawMessage(`{"tool_uses":3}`), "note": json.RawMessage(`null`)},
			}}},
		{"context management only known", `{"input_tokens":12,"context_management":{"original_input_tokens":20}}`,
			mms.MessageTokensCount{InputTokens: 12, ContextManagement: &mms.TokensCountContextManagement{OriginalInputTokens: 20}}},
		{"explicit null context management", `{"input_tokens":12,"context_management":null}`,
			mms.MessageTokensCount{InputTokens: 12, Extra: map[string]json.RawMessage{"context_management": json.RawMessage(`null`)}}},
		{"unknown top-level member", `{"input_tokens":12,"cache":{"hit":true}}`,
			mms.MessageTokensCount{InputTokens: 12, Extra: map[string]json.RawMessage{"cache": json.RawMessage(`{"hit":true}`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := roundTrip[mms.MessageTokensCount](t, []byte(tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decoded (-want +got):\n%s", diff)
			}
			out, err := json.Marshal(got)
			require.NoError(t, err)
			if string(out) != tt.in {
				t.Errorf("re-encoded\n%s\nwant\n%s", out, tt.in)
			}
		})
	}
}
