package mms_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	mms "github.com/mms-sdk/mms-go"

	"github.com/stretchr/testify/require"
)

func TestToolContent(t *testing.T) {
	img := mms.ImageFromBytes("", []byte("\x89PNG\r\n\x1a\n"))
	tests := []struct {
		name string
		out  any
		want string // the content's JSON
	}{
		{"string", "18°C", `[{"type":"text","text":"18°C"}]`},
		{"empty string", "", `null`},
		{"block", img, `[` + mustJSON(t, img) + `]`},
		{"blocks", mms.ContentBlocks{mms.TextBlock{Text: "a"}, img}, `[{"type":"text","text":"a"},` + mustJSON(t, img) + `]`},
		{"block slice", []mms.ContentBlock{mms.TextBlock{Text: "a"}}, `[{"type":"text","text":"a"}]`},
		{"struct", weatherOut{City: "Paris", TempC: 18}, `[{"type":"text","text":"{\"city\":\"Paris\",\"temp_c\":18}"}]`},
		{"number", 42, `[{"type":"text","text":"42"}]`},
		{"nil pointer", (*weatherOut)(nil), `[{"type":"text","text":"null"}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mms.ToolContent(tt.out)
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, mustJSON(t, got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// JSON results keep <, > and & as they are (no HTML escaping).
	if got, err := mms.ToolContent(map[string]string{"html": "<b>&</b>"}); err != nil || got[0].(mms.TextBlock).Text != `{"html":"<b>&</b>"}` {
		t.Errorf("ToolContent = %v, %v", got, err)
	}
	if _, err := mms.ToolContent(func() {}); err == nil {
		t.Error("a func encoded")
	}
}

func TestNewTool(t *testing.T) {
	tool := mms.NewTool("get_weather", "Weather now", func(ctx context.Context, in weatherIn) (weatherOut, error) {
		if in.City == "" {
			return weatherOut{}, errors.New("no city")
		}
		return weatherOut{City: in.City, TempC: 20}, nil
	})
	def, err := tool.Definition()
	require.NoError(t, err)
	want, err := mms.SchemaFor[weatherIn]()
	require.NoError(t, err)
	if def.Name != "get_weather" || def.Description != "Weather now" || string(def.InputSchema) != string(want) {
		t.Errorf("definition %+v", def)
	}

	tests := []struct {
		input   string
		text    string
		errText string // "" for success
	}{
		{`{"city":"Paris"}`, `{"city":"Paris","temp_c":20}`, ""},
		{`{"city":""}`, "", "no city"},
		{`{"city":1}`, "", "city"},
		{`{}`, "", "city"},
		{`{"city":"Paris","extra":1}`, "", "extra"},
		{`[]`, "", "invalid input"},
		{`not json`, "", "invalid input"},
	}
	for _, tt := range tests {
		content, err := tool.Run(context.Background(), json.RawMessage(tt.input))
		switch {
		case tt.errText == "" && err != nil:
			t.Errorf("%s: %v", tt.input, err)
		case tt.errText == "" && content[0].(mms.TextBlock).Text != tt.text:
			t.Errorf("%s: %v", tt.input, content)
		case tt.errText != "" && (err == nil || !strings.Contains(err.Error(), tt.errText)):
			t.Errorf("%s: err = %v, want it to mention %q", tt.input, err, tt.errText)
		}
	}
}

// FuzzFuncToolRun: any input either reaches the function decoded or is
// refused with a *ToolInputError; never a panic.
func FuzzFuncToolRun(f *testing.F) {
	for _, s := range []string{`{"amount":10,"from":"EUR"}`, `{"amount":"x"}`, `{}`, `null`, `{"amount":1e400,"from":"USD"}`, `{"from":"EUR","amount":1,"from":"GBP"}`} {
		f.Add(s)
	}
	tool := mms.NewTool("convert", "", func(ctx context.Context, in convertIn) (convertIn, error) { return in, nil })
	f.Fuzz(func(t *testing.T, input string) {
		content, err := tool.Run(context.Background(), json.RawMessage(input))
		var inputErr *mms.ToolInputError
		if err != nil {
			if !errors.As(err, &inputErr) {
				t.Fatalf("%q: %v is not a *ToolInputError", input, err)
			}
			return
		}
		var got convertIn
		if err := json.Unmarshal([]byte(content[0].(mms.TextBlock).Text), &got); err != nil {
			t.Fatalf("%q: the result does not decode: %v", input, err)
		}
		if got.From != "EUR" && got.From != "USD" {
			t.Fatalf("%q: decoded from %q, outside the enum", input, got.From)
		}
	})
}
