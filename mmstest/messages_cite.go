package mmstest

import (
	"encoding/json"
	"io"
	"strings"
)

// Citations in replies.
//
// When the last user turn holds a document with citations enabled whose
// text the fake can read (a "text" source, or a "file" source of a stored
// text/plain file), the reply gains one text block per such document,
// "The document says: <its first sentence>", citing that sentence with a
// char_location citation. document_index counts the request's documents in
// order, across all turns, as the service does. Streams deliver the
// citation as a citations_delta before the block's text.

// citationWire is a char_location citation of a reply.
type citationWire struct {
	Type           string  `json:"type"`
	CitedText      string  `json:"cited_text"`
	DocumentIndex  int     `json:"document_index"`
	DocumentTitle  *string `json:"document_title"`
	StartCharIndex int     `json:"start_char_index"`
	EndCharIndex   int     `json:"end_char_index"`
	FileID         *string `json:"file_id"`
}

// citedBlocks returns the cited text blocks for the documents of the last
// user turn.
func (s *Server) citedBlocks(turns []turn) []replyBlock {
	last := -1
	for i := len(turns) - 1; i >= 0; i-- {
		if turns[i].role == "user" {
			last = i
			break
		}
	}
	var out []replyBlock
	docIndex := 0
	for i, t := range turns {
		for _, lb := range t.blocks {
			b := lb.b
			if b.Type != "document" {
				continue
			}
			index := docIndex
			docIndex++
			var cfg struct {
				Enabled bool `json:"enabled"`
			}
			if i != last || b.Source == nil || json.Unmarshal(b.Citations, &cfg) != nil || !cfg.Enabled {
				continue
			}
			text, fileID := s.documentText(b.Source)
			sentence, start := firstSentence(text)
			if sentence == "" {
				continue
			}
			c := citationWire{Type: "char_location", CitedText: sentence, DocumentIndex: index, DocumentTitle: b.Title,
				StartCharIndex: start, EndCharIndex: start + len([]rune(sentence)), FileID: fileID}
			raw, _ := json.Marshal(c) // plain struct: cannot fail
			out = append(out, replyBlock{typ: "text", text: "The document says: " + sentence, citations: []json.RawMessage{raw}})
		}
	}
	return out
}

// documentText reads a document's plain text, and the file id it came from.
func (s *Server) documentText(src *sourceParam) (string, *string) {
	switch src.Type {
	case "text":
		return src.Data, nil
	case "file":
		f := s.files.find(src.FileID)
		if f == nil || !strings.HasPrefix(f.mimeType, "text/plain") {
			return "", nil
		}
		r, err := f.content.open()
		if err != nil {
			return "", nil
		}
		defer r.Close()
		data, _ := io.ReadAll(io.LimitReader(r, 4096)) // the first sentence is enough
		id := f.id
		return string(data), &id
	}
	return "", nil
}

// firstSentence is the text up to and including the first '.', '!' or '?'
// (at most 200 bytes) without leading space, and where it starts in
// characters.
func firstSentence(text string) (string, int) {
	trimmed := strings.TrimLeft(text, " \t\r\n")
	start := len([]rune(text[:len(text)-len(trimmed)]))
	if i := strings.IndexAny(trimmed, ".!?"); i >= 0 {
		trimmed = trimmed[:i+1]
	}
	return strings.TrimSpace(clip(trimmed, 200)), start
}
