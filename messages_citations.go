package mms

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A Citation points at the source of a piece of cited text, inside
// [TextBlock].Citations. Responses and requests share these types; a request
// drops the response-only file_id. Variants: [CharLocationCitation],
// [PageLocationCitation], [ContentBlockLocationCitation],
// [WebSearchResultLocationCitation], [SearchResultLocationCitation] and
// [UnknownCitation].
type Citation interface {
	json.Marshaler
	// Location returns the cited text and where it comes from, in one shape
	// for every kind.
	Location() CitationLocation
	isCitation()
	validate(path string) error
}

// CitationKind says what a [CitationLocation] points into.
type CitationKind string

// The kinds of citation location.
const (
	CitationKindChar            CitationKind = "char"              // characters of a plain-text document
	CitationKindPage            CitationKind = "page"              // pages of a PDF
	CitationKindContentBlock    CitationKind = "content_block"     // blocks of a custom-content document
	CitationKindWebSearchResult CitationKind = "web_search_result" // a web search result
	CitationKindSearchResult    CitationKind = "search_result"     // blocks of a search_result block
	CitationKindUnknown         CitationKind = "unknown"           // a citation type this version cannot name
)

// CitationLocation is a citation's cited text and location, whatever its
// kind. Which fields a kind fills:
//
//   - char, page, content_block: DocumentIndex, DocumentTitle (when the
//     document has one), FileID (when the document came from the Files
//     API), and Start and End: character indexes, 1-based page numbers or
//     block indexes; End is exclusive.
//   - web_search_result: URL and Title (when the page has one).
//   - search_result: SearchResultIndex, Source, Title (when the result has
//     one), and Start and End: block indexes, End exclusive.
//   - unknown: CitedText only, read from the raw JSON when present.
//
// CitedText is filled for every kind; fields a kind does not fill are zero.
type CitationLocation struct {
	Kind              CitationKind
	CitedText         string
	DocumentIndex     int
	DocumentTitle     string
	FileID            string
	URL               string
	Title             string
	Source            string
	SearchResultIndex int
	Start, End        int
}

// documentLocation is the location shared by the document citations.
func documentLocation(kind CitationKind, text string, index int, title, fileID *string, start, end int) CitationLocation {
	return CitationLocation{Kind: kind, CitedText: text, DocumentIndex: index, DocumentTitle: strOrEmpty(title),
		FileID: strOrEmpty(fileID), Start: start, End: end}
}

// strOrEmpty returns *s, or "" for nil.
func strOrEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Citations is a list of citations. It owns the union decoding.
//
//mms:json
type Citations []Citation

func (c Citations) validate(path string) error {
	for i, x := range c {
		p := fmt.Sprintf("%s[%d]", path, i)
		if x == nil {
			return invalid(p, "must not be nil")
		}
		if err := x.validate(p); err != nil {
			return err
		}
	}
	return nil
}

var citationUnion = codec.NewUnion[Citation]("Citation", UnknownCitation{}).
	Add("char_location", CharLocationCitation{}).
	Add("page_location", PageLocationCitation{}).
	Add("content_block_location", ContentBlockLocationCitation{}).
	Add("web_search_result_location", WebSearchResultLocationCitation{}).
	Add("search_result_location", SearchResultLocationCitation{})

// validateDocumentCitation checks the bounds shared by the document
// citations. document_title takes 1 to 500 characters: the seed's bound,
// which wins over the published schema's 255 (request-constraints.md,
// "Conflict"); the fake's schema table holds the same bound.
func validateDocumentCitation(path string, documentIndex int, title *string) error {
	if documentIndex < 0 {
		return invalid(path+".document_index", "must be >= 0, got %d", documentIndex)
	}
	if title != nil {
		if n := utf8.RuneCountInString(*title); n < 1 || n > 500 {
			return invalid(path+".document_title", "must be 1 to 500 characters or null, got %d", n)
		}
	}
	return nil
}

// CharLocationCitation is a "char_location" citation: a character range of
// a plain-text document.
type CharLocationCitation struct {
	CitedText     string `json:"cited_text"`
	DocumentIndex int    `json:"document_index"`
	// DocumentTitle is null (nil) when the document has no title; sent,
	// it is 1 to 500 characters: the seed's bound, which the SDK keeps
	// although the published schema says 1 to 255
	// (request-constraints.md, "Conflict").
	DocumentTitle  *string `json:"document_title"`
	StartCharIndex int     `json:"start_char_index"`
	// EndCharIndex is exclusive.
	EndCharIndex int `json:"end_char_index"`
	// FileID names the cited file when the document came from the Files
	// API. Response only: request encoding drops it.
	FileID *string `json:"file_id,omitzero" mms:"response"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Location returns the cited text and its character range.
func (c CharLocationCitation) Location() CitationLocation {
	return documentLocation(CitationKindChar, c.CitedText, c.DocumentIndex, c.DocumentTitle, c.FileID,
		c.StartCharIndex, c.EndCharIndex)
}

func (c CharLocationCitation) validate(path string) error {
	if err := validateDocumentCitation(path, c.DocumentIndex, c.DocumentTitle); err != nil {
		return err
	}
	if c.StartCharIndex < 0 {
		return invalid(path+".start_char_index", "must be >= 0, got %d", c.StartCharIndex)
	}
	return nil
}

// PageLocationCitation is a "page_location" citation: a page range of a PDF.
type PageLocationCitation struct {
	CitedText     string `json:"cited_text"`
	DocumentIndex int    `json:"document_index"`
	// DocumentTitle is null (nil) when the document has no title; sent,
	// it is 1 to 500 characters: the seed's bound, which the SDK keeps
	// although the published schema says 1 to 255
	// (request-constraints.md, "Conflict").
	DocumentTitle *string `json:"document_title"`
	// StartPageNumber is 1-based.
	StartPageNumber int `json:"start_page_number"`
	// EndPageNumber is exclusive.
	EndPageNumber int `json:"end_page_number"`
	// FileID names the cited file when the document came from the Files
	// API. Response only: request encoding drops it.
	FileID *string `json:"file_id,omitzero" mms:"response"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Location returns the cited text and its page range.
func (c PageLocationCitation) Location() CitationLocation {
	return documentLocation(CitationKindPage, c.CitedText, c.DocumentIndex, c.DocumentTitle, c.FileID,
		c.StartPageNumber, c.EndPageNumber)
}

func (c PageLocationCitation) validate(path string) error {
	if err := validateDocumentCitation(path, c.DocumentIndex, c.DocumentTitle); err != nil {
		return err
	}
	if c.StartPageNumber < 1 {
		return invalid(path+".start_page_number", "must be >= 1, got %d", c.StartPageNumber)
	}
	return nil
}

// ContentBlockLocationCitation is a "content_block_location" citation: a
// block range of a custom-content document.
type ContentBlockLocationCitation struct {
	CitedText     string `json:"cited_text"`
	DocumentIndex int    `json:"document_index"`
	// DocumentTitle is null (nil) when the document has no title; sent,
	// it is 1 to 500 characters: the seed's bound, which the SDK keeps
	// although the published schema says 1 to 255
	// (request-constraints.md, "Conflict").
	DocumentTitle   *string `json:"document_title"`
	StartBlockIndex int     `json:"start_block_index"`
	// EndBlockIndex is exclusive.
	EndBlockIndex int `json:"end_block_index"`
	// FileID names the cited file when the document came from the Files
	// API. Response only: request encoding drops it.
	FileID *string `json:"file_id,omitzero" mms:"response"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Location returns the cited text and its block range.
func (c ContentBlockLocationCitation) Location() CitationLocation {
	return documentLocation(CitationKindContentBlock, c.CitedText, c.DocumentIndex, c.DocumentTitle, c.FileID,
		c.StartBlockIndex, c.EndBlockIndex)
}

func (c ContentBlockLocationCitation) validate(path string) error {
	if err := validateDocumentCitation(path, c.DocumentIndex, c.DocumentTitle); err != nil {
		return err
	}
	if c.StartBlockIndex < 0 {
		return invalid(path+".start_block_index", "must be >= 0, got %d", c.StartBlockIndex)
	}
	return nil
}

// WebSearchResultLocationCitation is a "web_search_result_location"
// citation: text from a web search result.
type WebSearchResultLocationCitation struct {
	CitedText      string `json:"cited_text"`
	EncryptedIndex string `json:"encrypted_index"`
	// Title is null (nil) when the page has none; in a request 1 to 512
	// characters when set.
	Title *string `json:"title"`
	// URL is 1 to 2048 characters in a request.
	URL string `json:"url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Location returns the cited text and the result's URL and title.
func (c WebSearchResultLocationCitation) Location() CitationLocation {
	return CitationLocation{Kind: CitationKindWebSearchResult, CitedText: c.CitedText, URL: c.URL, Title: strOrEmpty(c.Title)}
}

func (c WebSearchResultLocationCitation) validate(path string) error {
	if c.Title != nil {
		if n := utf8.RuneCountInString(*c.Title); n < 1 || n > 512 {
			return invalid(path+".title", "must be 1 to 512 characters or null, got %d", n)
		}
	}
	if n := utf8.RuneCountInString(c.URL); n < 1 || n > 2048 {
		return invalid(path+".url", "must be 1 to 2048 characters, got %d", n)
	}
	return nil
}

// SearchResultLocationCitation is a "search_result_location" citation: a
// block range of a [SearchResultBlock].
type SearchResultLocationCitation struct {
	CitedText         string `json:"cited_text"`
	SearchResultIndex int    `json:"search_result_index"`
	Source            string `json:"source"`
	StartBlockIndex   int    `json:"start_block_index"`
	// EndBlockIndex is exclusive.
	EndBlockIndex int `json:"end_block_index"`
	// Title is null (nil) when the result has none.
	Title *string `json:"title"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Location returns the cited text, the result and its block range.
func (c SearchResultLocationCitation) Location() CitationLocation {
	return CitationLocation{Kind: CitationKindSearchResult, CitedText: c.CitedText, SearchResultIndex: c.SearchResultIndex,
		Source: c.Source, Title: strOrEmpty(c.Title), Start: c.StartBlockIndex, End: c.EndBlockIndex}
}

func (c SearchResultLocationCitation) validate(path string) error {
	if c.SearchResultIndex < 0 {
		return invalid(path+".search_result_index", "must be >= 0, got %d", c.SearchResultIndex)
	}
	if c.StartBlockIndex < 0 {
		return invalid(path+".start_block_index", "must be >= 0, got %d", c.StartBlockIndex)
	}
	return nil
}

// UnknownCitation holds a citation type this version cannot name; Raw is
// written back verbatim.
type UnknownCitation struct {
	Type string
	Raw  json.RawMessage
}

// Location returns the cited_text member of Raw, if it has a string one.
func (c UnknownCitation) Location() CitationLocation {
	var v struct {
		CitedText string `json:"cited_text"`
	}
	_ = json.Unmarshal(c.Raw, &v) // a citation without it cites nothing known
	return CitationLocation{Kind: CitationKindUnknown, CitedText: v.CitedText}
}

func (UnknownCitation) validate(string) error { return nil }
