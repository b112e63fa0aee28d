package mms

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// Media types of base64 and text document sources.
const (
	MediaTypePDF       = "application/pdf"
	MediaTypePlainText = "text/plain"
)

// ImageMediaType is the media type of base64 image data. Unknown values pass
// through (and fail validation).
type ImageMediaType string

// Image media types the service accepts.
const (
	ImageMediaTypeJPEG ImageMediaType = "image/jpeg"
	ImageMediaTypePNG  ImageMediaType = "image/png"
	ImageMediaTypeGIF  ImageMediaType = "image/gif"
	ImageMediaTypeWebP ImageMediaType = "image/webp"
)

// ---------------------------------------------------------------------------
// image sources

// An ImageSource is where an [ImageBlock]'s image comes from. Variants:
// [Base64ImageSource], [URLImageSource], [FileImageSource] and
// [UnknownImageSource].
type ImageSource interface {
	json.Marshaler
	isImageSource()
	validate(path string) error
}

var imageSourceUnion = codec.NewUnion[ImageSource]("ImageSource", UnknownImageSource{}).
	Add("base64", Base64ImageSource{}).
	Add("url", URLImageSource{}).
	Add("file", FileImageSource{})

// Base64ImageSource is a {"type":"base64"} image source: the image bytes,
// base64-encoded, and their media type.
type Base64ImageSource struct {
	MediaType ImageMediaType `json:"media_type"`
	// Data is the standard base64 encoding of the image.
	Data string `json:"data"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s Base64ImageSource) validate(path string) error {
	switch s.MediaType {
	case ImageMediaTypeJPEG, ImageMediaTypePNG, ImageMediaTypeGIF, ImageMediaTypeWebP:
	default:
		return invalid(path+".media_type", "must be one of image/jpeg, image/png, image/gif, image/webp, got %q", s.MediaType)
	}
	if s.Data == "" {
		return invalid(path+".data", "must not be empty")
	}
	return nil
}

// URLImageSource is a {"type":"url"} image source: the service fetches the
// image.
type URLImageSource struct {
	URL string `json:"url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s URLImageSource) validate(path string) error {
	if s.URL == "" {
		return invalid(path+".url", "must not be empty")
	}
	return nil
}

// FileImageSource is a {"type":"file"} image source: a file uploaded with
// the Files API.
type FileImageSource struct {
	FileID string `json:"file_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s FileImageSource) validate(path string) error {
	if s.FileID == "" {
		return invalid(path+".file_id", "must not be empty")
	}
	return nil
}

// UnknownImageSource holds an image source type this version cannot name;
// Raw is written back verbatim.
type UnknownImageSource struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownImageSource) validate(string) error { return nil }

// ---------------------------------------------------------------------------
// document sources

// A DocumentSource is where a [DocumentBlock]'s content comes from.
// Variants: [Base64PDFSource], [PlainTextSource], [ContentSource],
// [URLPDFSource], [FileDocumentSource] and [UnknownDocumentSource].
type DocumentSource interface {
	json.Marshaler
	isDocumentSource()
	validate(path string) error
}

var documentSourceUnion = codec.NewUnion[DocumentSource]("DocumentSource", UnknownDocumentSource{}).
	Add("base64", Base64PDFSource{}).
	Add("text", PlainTextSource{}).
	AddSpec("content", ContentSource{}, shorthandContent).
	Add("url", URLPDFSource{}).
	Add("file", FileDocumentSource{})

// Base64PDFSource is a {"type":"base64"} document source: a PDF,
// base64-encoded. MediaType is "application/pdf" ([MediaTypePDF]).
type Base64PDFSource struct {
	MediaType string `json:"media_type"`
	// Data is the standard base64 encoding of the PDF.
	Data string `json:"data"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s Base64PDFSource) validate(path string) error {
	if s.MediaType != MediaTypePDF {
		return invalid(path+".media_type", "must be %q, got %q", MediaTypePDF, s.MediaType)
	}
	if s.Data == "" {
		return invalid(path+".data", "must not be empty")
	}
	return nil
}

// PlainTextSource is a {"type":"text"} document source: plain text.
// MediaType is "text/plain" ([MediaTypePlainText]).
type PlainTextSource struct {
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s PlainTextSource) validate(path string) error {
	if s.MediaType != MediaTypePlainText {
		return invalid(path+".media_type", "must be %q, got %q", MediaTypePlainText, s.MediaType)
	}
	return nil
}

// ContentSource is a {"type":"content"} document source: custom content
// made of text and image blocks, cited by block index.
type ContentSource struct {
	// Content holds TextBlock and ImageBlock values.
	Content ContentBlocks `json:"content"`
	// StringContent selects the wire's string shorthand ("content":"…") for
	// Content when it is a single plain TextBlock; decoding sets it when the
	// wire used the string form. Otherwise the array form is written.
	StringContent bool `json:"-"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s ContentSource) validate(path string) error {
	if s.Content == nil {
		return invalid(path+".content", "is required")
	}
	if s.StringContent {
		return nil
	}
	return s.Content.validate(path+".content", func(b ContentBlock) bool {
		switch b.(type) {
		case TextBlock, ImageBlock, UnknownContentBlock:
			return true
		}
		return false
	}, "a content document source")
}

// URLPDFSource is a {"type":"url"} document source: the service fetches the
// PDF.
type URLPDFSource struct {
	URL string `json:"url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s URLPDFSource) validate(path string) error {
	if s.URL == "" {
		return invalid(path+".url", "must not be empty")
	}
	return nil
}

// FileDocumentSource is a {"type":"file"} document source: a file uploaded
// with the Files API.
type FileDocumentSource struct {
	FileID string `json:"file_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s FileDocumentSource) validate(path string) error {
	if s.FileID == "" {
		return invalid(path+".file_id", "must not be empty")
	}
	return nil
}

// UnknownDocumentSource holds a document source type this version cannot
// name; Raw is written back verbatim.
type UnknownDocumentSource struct {
	Type string
	Raw  json.RawMessage
}

func (UnknownDocumentSource) validate(string) error { return nil }
