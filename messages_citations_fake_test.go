package mms_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"

	"github.com/stretchr/testify/require"
)

// TestCitedDocumentCreateAndStream asks about a document with citations on:
// the fake cites its first sentence, the SDK decodes a typed char_location
// citation, streaming builds the same Message, and the reply goes back into
// the next request (file_id, response-only, is dropped on the way).
func TestCitedDocumentCreateAndStream(t *testing.T) {
	ctx := context.Background()
	params := func(doc mms.DocumentBlock) mms.MessageCreateParams {
		doc.Citations = &mms.CitationsConfig{Enabled: mms.Ptr(true)}
		doc.Title = mms.Ptr("notes")
		return mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 512,
			Messages: []mms.MessageParam{mms.UserMessage(doc, mms.TextBlock{Text: "What does it say?"})}}
	}
	tests := []struct {
		name     string
		doc      func(*testing.T, *mms.Client) mms.DocumentBlock
		wantFile bool
	}{
		{"text source", func(*testing.T, *mms.Client) mms.DocumentBlock {
			return mms.TextDocument("  Go is simple. It is also fast.")
		}, false},
		{"uploaded file", func(t *testing.T, c *mms.Client) mms.DocumentBlock {
			f, err := c.Files.Upload(ctx, mms.FileUploadParams{Filename: "n.txt", Reader: strings.NewReader("  Go is simple. It is also fast.")})
			require.NoError(t, err)
			return mms.DocumentFromFile(f.ID)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c1, _ := newFake(t)
			c2, _ := newFake(t)
			p1, p2 := params(tt.doc(t, c1)), params(tt.doc(t, c2))
			msg, err := c1.Messages.Create(ctx, p1)
			require.NoError(t, err)
			var cite mms.CharLocationCitation
			for _, b := range msg.Content {
				if tb, ok := b.(mms.TextBlock); ok && len(tb.Citations) == 1 {
					cite, _ = tb.Citations[0].(mms.CharLocationCitation)
				}
			}
			if cite.CitedText != "Go is simple." || cite.StartCharIndex != 2 || cite.EndCharIndex != 15 ||
				cite.DocumentTitle == nil || *cite.DocumentTitle != "notes" || (cite.FileID != nil) != tt.wantFile {
				t.Fatalf("citation = %+v", cite)
			}

			var acc mms.MessageAccumulator
			for ev, err := range c2.Messages.Stream(ctx, p2) {
				require.NoError(t, err)
				if err := acc.Add(ev); err != nil {
					t.Fatal(err)
				}
			}
			if d := cmp.Diff(msg, acc.Message()); d != "" {
				t.Errorf("streamed reply differs (-create +stream):\n%s", d)
			}

			p1.Messages = append(p1.Messages, msg.ToParam(), mms.UserText("thanks"))
			if _, err := c1.Messages.Create(ctx, p1); err != nil {
				t.Fatalf("the cited reply was refused when sent back: %v", err)
			}
		})
	}
}
