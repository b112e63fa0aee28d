package mms

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// The events a client sends to a session (§4.2 of the managed-agents
// reference). Sessions.Create takes user.message and user.define_outcome
// as initial events; the other kinds belong to the events endpoint.

// A SessionEventParams is one event a client sends to a session:
// [UserMessageEventParams], [UserDefineOutcomeEventParams] or
// [UnknownSessionEventParams] (a decoded kind this SDK version cannot
// name; it is sent back as it came).
type SessionEventParams interface {
	json.Marshaler
	isSessionEventParams()
	validate(path string) error
}

var sessionEventParamsUnion = codec.NewUnion[SessionEventParams]("SessionEventParams", UnknownSessionEventParams{}).
	Add("user.message", UserMessageEventParams{}).
	Add("user.define_outcome", UserDefineOutcomeEventParams{})

// UserMessageEventParams is a user turn (the wire type "user.message").
// [UserMessageEvent] builds the common text-only one.
type UserMessageEventParams struct {
	// Content is the message: at least one block.
	Content []SessionContentBlock `json:"content"`
}

// UserMessageEvent returns a user.message holding text as its only block.
func UserMessageEvent(text string) UserMessageEventParams {
	return UserMessageEventParams{Content: []SessionContentBlock{TextBlock{Text: text}}}
}

// UserMessageEventBlocks returns a user.message holding blocks (text,
// images, documents).
func UserMessageEventBlocks(blocks ...SessionContentBlock) UserMessageEventParams {
	return UserMessageEventParams{Content: blocks}
}

// UserDefineOutcomeEventParams sets the agent working towards an outcome
// that a rubric grades (the wire type "user.define_outcome").
// [DefineOutcomeEvent] builds one.
type UserDefineOutcomeEventParams struct {
	// Description says what the outcome is. Required.
	Description string `json:"description"`
	// Rubric grades the outcome: [TextRubric] or [FileRubric]. Required.
	Rubric OutcomeRubric `json:"rubric"`
	// MaxIterations caps the attempts, 1–20; 0 leaves the service's
	// default (3).
	MaxIterations int `json:"max_iterations,omitzero"`
}

// DefineOutcomeEvent returns a user.define_outcome for description graded
// by rubric.
func DefineOutcomeEvent(description string, rubric OutcomeRubric) UserDefineOutcomeEventParams {
	return UserDefineOutcomeEventParams{Description: description, Rubric: rubric}
}

// UnknownSessionEventParams keeps an event kind this SDK version cannot
// name.
type UnknownSessionEventParams struct {
	Type string
	Raw  json.RawMessage
}

func (UserMessageEventParams) isSessionEventParams()       {}
func (UserDefineOutcomeEventParams) isSessionEventParams() {}
func (UnknownSessionEventParams) isSessionEventParams()    {}

func (e UserMessageEventParams) MarshalJSON() ([]byte, error)       { return marshalRequest(e) }
func (e *UserMessageEventParams) UnmarshalJSON(data []byte) error   { return unmarshalJSON(data, e) }
func (e UserDefineOutcomeEventParams) MarshalJSON() ([]byte, error) { return marshalRequest(e) }
func (e *UserDefineOutcomeEventParams) UnmarshalJSON(data []byte) error {
	return unmarshalJSON(data, e)
}
func (u UnknownSessionEventParams) MarshalJSON() ([]byte, error) { return marshalJSON(u) }

func (UnknownSessionEventParams) validate(string) error { return nil }

func (e UserMessageEventParams) validate(path string) error {
	if len(e.Content) == 0 {
		return invalid(path+".content", "must hold at least one block")
	}
	for i, b := range e.Content {
		p := fmt.Sprintf("%s.content[%d]", path, i)
		if b == nil {
			return invalid(p, "must not be nil")
		}
		if err := b.validate(p); err != nil {
			return err
		}
		if err := sessionBlockFields(p, b); err != nil {
			return err
		}
	}
	return nil
}

// sessionBlockFields refuses the Messages-only members of a reused block:
// an event's text is {text}, its image {source}, its document {source,
// title, context}.
func sessionBlockFields(path string, b SessionContentBlock) error {
	var cacheControl bool
	switch b := b.(type) {
	case TextBlock:
		if len(b.Citations) > 0 {
			return invalid(path+".citations", "is not allowed in a session event")
		}
		cacheControl = b.CacheControl != nil
	case ImageBlock:
		if b.Transformations != nil {
			return invalid(path+".transformations", "is not allowed in a session event")
		}
		cacheControl = b.CacheControl != nil
	case DocumentBlock:
		if b.Citations != nil {
			return invalid(path+".citations", "is not allowed in a session event")
		}
		cacheControl = b.CacheControl != nil
	}
	if cacheControl {
		return invalid(path+".cache_control", "is not allowed in a session event")
	}
	return nil
}

// The outcome iteration limits.
const maxOutcomeIterations = 20

func (e UserDefineOutcomeEventParams) validate(path string) error {
	if e.Description == "" {
		return invalid(path+".description", "is required")
	}
	switch r := e.Rubric.(type) {
	case nil:
		return invalid(path+".rubric", "is required")
	case TextRubric:
		if r.Content == "" {
			return invalid(path+".rubric.content", "is required")
		}
	case FileRubric:
		if r.FileID == "" {
			return invalid(path+".rubric.file_id", "is required")
		}
	}
	if e.MaxIterations != 0 && (e.MaxIterations < 1 || e.MaxIterations > maxOutcomeIterations) {
		return invalid(path+".max_iterations", "must be 1 to %d (or 0 for the default), got %d", maxOutcomeIterations, e.MaxIterations)
	}
	return nil
}

// An OutcomeRubric grades an outcome: [TextRubric], [FileRubric] or
// [UnknownOutcomeRubric].
type OutcomeRubric interface {
	json.Marshaler
	isOutcomeRubric()
}

var outcomeRubricUnion = codec.NewUnion[OutcomeRubric]("OutcomeRubric", UnknownOutcomeRubric{}).
	Add("text", TextRubric{}).
	Add("file", FileRubric{})

// TextRubric is a rubric given inline (the wire type "text").
type TextRubric struct {
	// Content is the rubric's text. Required.
	Content string `json:"content"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

// FileRubric is a rubric in an uploaded file (the wire type "file").
type FileRubric struct {
	// FileID names the file. Required.
	FileID string `json:"file_id"`
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownOutcomeRubric keeps a rubric kind this SDK version cannot name.
type UnknownOutcomeRubric struct {
	Type string
	Raw  json.RawMessage
}

func (TextRubric) isOutcomeRubric()           {}
func (FileRubric) isOutcomeRubric()           {}
func (UnknownOutcomeRubric) isOutcomeRubric() {}

func (r TextRubric) MarshalJSON() ([]byte, error)           { return marshalJSON(r) }
func (r *TextRubric) UnmarshalJSON(data []byte) error       { return unmarshalJSON(data, r) }
func (r FileRubric) MarshalJSON() ([]byte, error)           { return marshalJSON(r) }
func (r *FileRubric) UnmarshalJSON(data []byte) error       { return unmarshalJSON(data, r) }
func (u UnknownOutcomeRubric) MarshalJSON() ([]byte, error) { return marshalJSON(u) }

// A SessionContentBlock is one block of a session event's content: the
// Messages [TextBlock], [ImageBlock] and [DocumentBlock], a
// [RedactedBlock], or [UnknownSessionContentBlock].
type SessionContentBlock interface {
	json.Marshaler
	isSessionContentBlock()
	validate(path string) error
}

var sessionContentBlockUnion = codec.NewUnion[SessionContentBlock]("SessionContentBlock", UnknownSessionContentBlock{}).
	Add("text", TextBlock{}).
	Add("image", ImageBlock{}).
	Add("document", DocumentBlock{}).
	Add("redacted", RedactedBlock{})

// RedactedBlock stands for content the service withheld (the wire type
// "redacted").
type RedactedBlock struct {
	// Extra holds members this SDK version does not model.
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSessionContentBlock keeps a block kind this SDK version cannot
// name.
type UnknownSessionContentBlock struct {
	Type string
	Raw  json.RawMessage
}

func (TextBlock) isSessionContentBlock()                  {}
func (ImageBlock) isSessionContentBlock()                 {}
func (DocumentBlock) isSessionContentBlock()              {}
func (RedactedBlock) isSessionContentBlock()              {}
func (UnknownSessionContentBlock) isSessionContentBlock() {}

func (b RedactedBlock) MarshalJSON() ([]byte, error)              { return marshalJSON(b) }
func (b *RedactedBlock) UnmarshalJSON(data []byte) error          { return unmarshalJSON(data, b) }
func (u UnknownSessionContentBlock) MarshalJSON() ([]byte, error) { return marshalJSON(u) }

func (RedactedBlock) validate(string) error              { return nil }
func (UnknownSessionContentBlock) validate(string) error { return nil }
