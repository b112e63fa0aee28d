package mmstest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFirstSentence(t *testing.T) {
	for _, tt := range []struct {
		in    string
		want  string
		start int
	}{
		{"Hello. World.", "Hello.", 0},
		{"\n  héllo wörld! more", "héllo wörld!", 3},
		{"no end", "no end", 0},
		{"   ", "", 3},
		{strings.Repeat("x", 300), strings.Repeat("x", 200), 0},
	} {
		got, start := firstSentence(tt.in)
		if got != tt.want || start != tt.start {
			t.Errorf("firstSentence(%q) = %q, %d; want %q, %d", tt.in, got, start, tt.want, tt.start)
		}
	}
}

// TestCitationDocumentIndex: documents count across the whole request, and
// only the last user turn's cited documents are cited.
func TestCitationDocumentIndex(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	doc := func(text string, cite bool) map[string]any {
		d := map[string]any{"type": "document", "source": map[string]any{"type": "text", "media_type": "text/plain", "data": text}}
		if cite {
			d["citations"] = map[string]any{"enabled": true}
		}
		return d
	}
	body := map[string]any{"model": "mms-large-1", "max_tokens": 500, "messages": []any{
		map[string]any{"role": "user", "content": []any{doc("First doc.", true), map[string]any{"type": "text", "text": "a"}}},
		map[string]any{"role": "assistant", "content": "ok"},
		map[string]any{"role": "user", "content": []any{doc("Second doc.", false), doc("Third doc.", true), map[string]any{"type": "text", "text": "b"}}},
	}}
	raw, _ := json.Marshal(body)
	hr, resp := post(t, srv, "/v1/messages", string(raw))
	if hr.StatusCode != 200 {
		t.Fatalf("status %d: %s", hr.StatusCode, resp)
	}
	var msg struct {
		Content []struct {
			Text      string `json:"text"`
			Citations []struct {
				CitedText     string `json:"cited_text"`
				DocumentIndex int    `json:"document_index"`
			} `json:"citations"`
		} `json:"content"`
	}
	if err := json.Unmarshal(resp, &msg); err != nil {
		t.Fatal(err)
	}
	if len(msg.Content) != 2 || len(msg.Content[1].Citations) != 1 {
		t.Fatalf("content = %s", resp)
	}
	if c := msg.Content[1].Citations[0]; c.CitedText != "Third doc." || c.DocumentIndex != 2 {
		t.Errorf("citation = %+v, want Third doc. at index 2", c)
	}
}
