package mms_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
)

// TestCitationLocation decodes one citation of every kind from the wire and
// checks the one-shape location each answers.
func TestCitationLocation(t *testing.T) {
	tests := []struct {
		name string
		wire string
		want mms.CitationLocation
	}{
		{"char", `{"type":"char_location","cited_text":"Go is simple.","document_index":1,"document_title":"notes",` +
			`"start_char_index":2,"end_char_index":15,"file_id":"file_1"}`,
			mms.CitationLocation{Kind: mms.CitationKindChar, CitedText: "Go is simple.", DocumentIndex: 1,
				DocumentTitle: "notes", FileID: "file_1", Start: 2, End: 15}},
		{"char untitled", `{"type":"char_location","cited_text":"x","document_index":0,"document_title":null,` +
			`"start_char_index":0,"end_char_index":1}`,
			mms.CitationLocation{Kind: mms.CitationKindChar, CitedText: "x", End: 1}},
		{"page", `{"type":"page_location","cited_text":"p","document_index":2,"document_title":"report",` +
			`"start_page_number":3,"end_page_number":5}`,
			mms.CitationLocation{Kind: mms.CitationKindPage, CitedText: "p", DocumentIndex: 2, DocumentTitle: "report",
				Start: 3, End: 5}},
		{"content block", `{"type":"content_block_location","cited_text":"b","document_index":0,"document_title":null,` +
			`"start_block_index":1,"end_block_index":2}`,
			mms.CitationLocation{Kind: mms.CitationKindContentBlock, CitedText: "b", Start: 1, End: 2}},
		{"web search result", `{"type":"web_search_result_location","cited_text":"w","encrypted_index":"e",` +
			`"title":"Home","url":"https://example.com/"}`,
			mms.CitationLocation{Kind: mms.CitationKindWebSearchResult, CitedText: "w", URL: "https://example.com/", Title: "Home"}},
		{"search result", `{"type":"search_result_location","cited_text":"s","search_result_index":4,` +
			`"source":"kb://doc","start_block_index":0,"end_block_index":3,"title":null}`,
			mms.CitationLocation{Kind: mms.CitationKindSearchResult, CitedText: "s", SearchResultIndex: 4,
				Source: "kb://doc", End: 3}},
		{"unknown with cited_text", `{"type":"audio_location","cited_text":"heard","start_ms":10}`,
			mms.CitationLocation{Kind: mms.CitationKindUnknown, CitedText: "heard"}},
		{"unknown without cited_text", `{"type":"audio_location","cited_text":7}`,
			mms.CitationLocation{Kind: mms.CitationKindUnknown}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cs mms.Citations
			if err := json.Unmarshal([]byte("["+tt.wire+"]"), &cs); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, cs[0].Location()); d != "" {
				t.Errorf("Location() (-want +got):\n%s", d)
			}
		})
	}
}

// TestMessageThinking joins the thinking blocks and skips everything else.
func TestMessageThinking(t *testing.T) {
	tests := []struct {
		name    string
		content mms.ContentBlocks
		want    string
	}{
		{"none", mms.ContentBlocks{mms.TextBlock{Text: "hi"}}, ""},
		{"one", mms.ContentBlocks{mms.ThinkingBlock{Thinking: "hmm", Signature: "s"}, mms.TextBlock{Text: "hi"}}, "hmm"},
		{"two and redacted", mms.ContentBlocks{mms.ThinkingBlock{Thinking: "a"}, mms.RedactedThinkingBlock{Data: "x"},
			mms.TextBlock{Text: "t"}, mms.ThinkingBlock{Thinking: "b"}}, "ab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &mms.Message{Content: tt.content}
			if got := m.Thinking(); got != tt.want {
				t.Errorf("Thinking() = %q, want %q", got, tt.want)
			}
		})
	}
}
