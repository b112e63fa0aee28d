package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"
)

// TestRun asks mmstest about two documents; it cites the first sentence of
// each (char_location).
func TestRun(t *testing.T) {
	client, _ := fakeclient.New(t)
	a, b := mms.TextDocument("Lighthouses guide ships. They are tall."), mms.TextDocument("Pharos was first. It fell.")
	a.Title = mms.Ptr("Lighthouses")
	var out bytes.Buffer
	if err := run(context.Background(), client, "mms-large-1", []mms.DocumentBlock{a, b}, "Why?", &out); err != nil {
		t.Fatal(err)
	}
	want := `You said: Why?The document says: Lighthouses guide ships. [1]The document says: Pharos was first. [2]
[1] "Lighthouses guide ships." (document 0 "Lighthouses", characters 0-23)
[2] "Pharos was first." (document 1 "", characters 0-16)
`
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
}

// TestPrintSource covers the kinds the fake does not cite.
func TestPrintSource(t *testing.T) {
	tests := []struct {
		loc  mms.CitationLocation
		want string
	}{
		{mms.CitationLocation{Kind: mms.CitationKindPage, CitedText: "p", DocumentIndex: 1, DocumentTitle: "r", Start: 2, End: 4},
			`[1] "p" (document 1 "r", pages 2-3)` + "\n"},
		{mms.CitationLocation{Kind: mms.CitationKindContentBlock, CitedText: "c", Start: 0, End: 1},
			`[1] "c" (document 0 "", blocks 0-0)` + "\n"},
		{mms.CitationLocation{Kind: mms.CitationKindWebSearchResult, CitedText: "w", URL: "https://example.com/"},
			`[1] "w" (https://example.com/)` + "\n"},
		{mms.CitationLocation{Kind: mms.CitationKindSearchResult, CitedText: "s", Source: "kb://a", Start: 1, End: 3},
			`[1] "s" (kb://a, blocks 1-2)` + "\n"},
		{mms.CitationLocation{Kind: mms.CitationKindUnknown, CitedText: "u"}, `[1] "u" (an unknown source)` + "\n"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		printSource(&out, 1, tt.loc)
		if out.String() != tt.want {
			t.Errorf("printSource(%+v) = %q, want %q", tt.loc, out.String(), tt.want)
		}
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"[1] "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
