package mms

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/stretchr/testify/require"
)

type soAnswer struct {
	City  string  `json:"city"`
	Temps []int   `json:"temps"`
	Note  *string `json:"note"`
}

func textReply(text string, stop StopReason) *Message {
	return &Message{Role: RoleAssistant, Content: ContentBlocks{TextBlock{Text: text}}, StopReason: stop}
}

func TestParseOutput(t *testing.T) {
	long := `{"city":"` + strings.Repeat("x", 1000) + `"}`
	for _, c := range []struct {
		name     string
		m        *Message
		want     soAnswer
		errWords []string // in the OutputError's message
		is       error
	}{
		{name: "match", m: textReply(`{"city":"Oslo","temps":[1,-2]}`, StopReasonEndTurn), want: soAnswer{City: "Oslo", Temps: []int{1, -2}}},
		{name: "match at max_tokens", m: textReply(`{"city":"Oslo","temps":[]}`, StopReasonMaxTokens), want: soAnswer{City: "Oslo", Temps: []int{}}},
		{name: "wrong type", m: textReply(`{"city":"Oslo","temps":[1,"2"]}`, StopReasonEndTurn), errWords: []string{"$.temps[1]: want integer, got string"}},
		{name: "missing required", m: textReply(`{"city":"Oslo"}`, StopReasonEndTurn), errWords: []string{"$.temps: is required"}},
		{name: "extra member", m: textReply(`{"city":"Oslo","temps":[],"wind":3}`, StopReasonEndTurn), errWords: []string{"$.wind: is not allowed"}},
		{name: "not JSON", m: textReply(`Sure! Here is the JSON`, StopReasonEndTurn), errWords: []string{"invalid JSON"}},
		{name: "empty", m: textReply(``, StopReasonEndTurn), errWords: []string{"no text"}},
		{name: "no content", m: &Message{StopReason: StopReasonEndTurn}, errWords: []string{"no text"}},
		{name: "truncated", m: textReply(`{"city":"Os`, StopReasonMaxTokens), errWords: []string{"truncated", "invalid JSON"}, is: ErrOutputTruncated},
		{name: "truncated empty", m: textReply(``, StopReasonMaxTokens), is: ErrOutputTruncated},
		{name: "refusal", m: &Message{Content: ContentBlocks{TextBlock{Text: `{"city":"Oslo","temps":[]}`}}, StopReason: StopReasonRefusal, StopDetails: &StopDetails{Explanation: Ptr("policy")}},
			errWords: []string{"refused", "policy"}, is: ErrOutputRefused},
		{name: "long text clipped", m: textReply(long, StopReasonEndTurn), errWords: []string{"(1011 bytes)"}},
		{name: "nil", m: nil, errWords: []string{"no message"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseOutput[soAnswer](c.m)
			if c.errWords == nil && c.is == nil {
				require.NoError(t, err)
				if d := cmp.Diff(c.want, got); d != "" {
					t.Errorf("(-want +got):\n%s", d)
				}
				return
			}
			var oe *OutputError
			if !errors.As(err, &oe) {
				t.Fatalf("got %+v, %v; want an *OutputError", got, err)
			}
			if d := cmp.Diff(soAnswer{}, got); d != "" {
				t.Errorf("value with an error: %s", d)
			}
			if c.m != nil && (oe.Text != c.m.Text() || oe.StopReason != c.m.StopReason) {
				t.Errorf("Text/StopReason = %q/%q", oe.Text, oe.StopReason)
			}
			for _, w := range c.errWords {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q lacks %q", err, w)
				}
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("errors.Is(%v, %v) is false", err, c.is)
			}
			if c.is != ErrOutputTruncated && errors.Is(err, ErrOutputTruncated) {
				t.Errorf("%v is ErrOutputTruncated", err)
			}
			if len(err.Error()) > 600 {
				t.Errorf("message is %d bytes: the text is not clipped", len(err.Error()))
			}
		})
	}
}

// A bare number cut at max_tokens may be shorter than the model's answer.
func TestParseOutputTruncatedNumber(t *testing.T) {
	_, err := ParseOutput[int](textReply(`12`, StopReasonMaxTokens))
	if !errors.Is(err, ErrOutputTruncated) {
		t.Errorf("got %v, want ErrOutputTruncated", err)
	}
	if n, err := ParseOutput[int](textReply(`12`, StopReasonEndTurn)); err != nil || n != 12 {
		t.Errorf("got %d, %v", n, err)
	}
}

type (
	soWithMap struct {
		Inner struct {
			Tags map[string]string `json:"tags"`
		} `json:"inner"`
	}
	soLoose     struct{ L soLooseOwn }
	soLooseOwn  struct{}
	soFormat    struct{ F soFormatOwn }
	soFormatOwn struct{}
)

func (soLooseOwn) JSONSchema() json.RawMessage {
	return json.RawMessage(`{"anyOf":[{"type":"object","properties":{}},{"type":"null"}]}`)
}

func (soFormatOwn) JSONSchema() json.RawMessage {
	return json.RawMessage(`{"type":"string","format":"regex"}`)
}

func TestOutputFormatFor(t *testing.T) {
	f, err := OutputFormatFor[soAnswer]()
	require.NoError(t, err)
	want, _ := SchemaFor[soAnswer]()
	if string(f.Schema) != string(want) {
		t.Errorf("schema %s, want %s", f.Schema, want)
	}
	if err := f.validate("output_config.format"); err != nil {
		t.Error(err)
	}
	for _, c := range []struct {
		name  string
		fn    func() (*OutputFormat, error)
		path  string
		words string
	}{
		{"map field", OutputFormatFor[soWithMap], "soWithMap.Inner.Tags", "map"},
		{"map root", OutputFormatFor[map[string]int], "", "map"},
		{"loose JSONSchema", OutputFormatFor[soLoose], "soLoose.L", "additionalProperties"},
		{"unsupported format in JSONSchema", OutputFormatFor[soFormat], "soFormat.F", `"regex"`},
		{"no schema", OutputFormatFor[stFunc], "stFunc.F", "func"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := c.fn()
			var se *SchemaError
			if !errors.As(err, &se) || f != nil {
				t.Fatalf("got %v, %v; want a *SchemaError", f, err)
			}
			if se.Path != c.path || !strings.Contains(se.Reason, c.words) {
				t.Errorf("got %#v, want path %q and %q", se, c.path, c.words)
			}
		})
	}
}
