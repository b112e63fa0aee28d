package mms

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// The events a client sends to a session. Sessions.Create takes user.message
// and user.define_outcome as initial events; every kind goes to the events
// endpoint in a [SessionEventSendParams].

// A SessionEventParams is one event a client sends to a session:
// [UserMessageEventParams], [UserInterruptEventParams],
// [UserToolConfirmationEventParams], [UserCustomToolResultEventParams],
// [UserToolResultEventParams], [UserDefineOutcomeEventParams],
// [SystemMessageEventParams] or [UnknownSessionEventParams] (a decoded
// kind this SDK version cannot name; it is sent back as it came). The
// New…Event constructors build the common ones.
type SessionEventParams interface {
	json.Marshaler
	isSessionEventParams()
	validate(path string) error
}

var sessionEventParamsUnion = codec.NewUnion[SessionEventParams]("SessionEventParams", UnknownSessionEventParams{}).
	Add("user.message", UserMessageEventParams{}).
	Add("user.interrupt", UserInterruptEventParams{}).
	Add("user.tool_confirmation", UserToolConfirmationEventParams{}).
	Add("user.custom_tool_result", UserCustomToolResultEventParams{}).
	Add("user.tool_result", UserToolResultEventParams{}).
	Add("user.define_outcome", UserDefineOutcomeEventParams{}).
	Add("system.message", SystemMessageEventParams{})

// UserMessageEventParams is a user turn (the wire type "user.message").
// [NewUserMessageEvent] builds the common text-only one.
type UserMessageEventParams struct {
	// Content is the message: at least one text, image, document or
	// redacted block. A document's source is base64, text, url or file
	// (not the Messages API's content source).
	Content []SessionContentBlock `json:"content"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// NewUserMessageEvent returns a user.message holding text as its only
// block.
func NewUserMessageEvent(text string) UserMessageEventParams {
	return UserMessageEventParams{Content: []SessionContentBlock{TextBlock{Text: text}}}
}

// NewUserMessageEventBlocks returns a user.message holding blocks (text,
// images, documents).
func NewUserMessageEventBlocks(blocks ...SessionContentBlock) UserMessageEventParams {
	return UserMessageEventParams{Content: blocks}
}

// UserDefineOutcomeEventParams sets the agent working towards an outcome
// that a rubric grades (the wire type "user.define_outcome").
// [NewDefineOutcomeEvent] builds one.
type UserDefineOutcomeEventParams struct {
	// Description says what the outcome is. Always sent; "" is allowed
	// (the schema sets no minimum length).
	Description string `json:"description"`
	// Rubric grades the outcome: [TextRubric] or [FileRubric]. Required.
	Rubric OutcomeRubric `json:"rubric"`
	// MaxIterations caps the attempts, 1–20; 0 leaves the service's
	// default (3). The service is stricter here than its schema, which
	// would take more (agents-sessions-environments.md §4.2, row
	// user.define_outcome: "default 3, max 20").
	MaxIterations int `json:"max_iterations,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// NewDefineOutcomeEvent returns a user.define_outcome for description
// graded by rubric.
func NewDefineOutcomeEvent(description string, rubric OutcomeRubric) UserDefineOutcomeEventParams {
	return UserDefineOutcomeEventParams{Description: description, Rubric: rubric}
}

// UserInterruptEventParams stops the agent (the wire type
// "user.interrupt"): every thread, or only SessionThreadID's.
// [NewInterruptEvent] and [NewThreadInterruptEvent] build them.
type UserInterruptEventParams struct {
	// SessionThreadID limits the interrupt to one thread; "" interrupts
	// every thread that is not archived.
	SessionThreadID string `json:"session_thread_id,omitzero"`
}

// NewInterruptEvent returns a user.interrupt for every thread.
func NewInterruptEvent() UserInterruptEventParams { return UserInterruptEventParams{} }

// NewThreadInterruptEvent returns a user.interrupt for one thread.
func NewThreadInterruptEvent(threadID string) UserInterruptEventParams {
	return UserInterruptEventParams{SessionThreadID: threadID}
}

// ToolConfirmationResult answers a permission request. Unknown values
// pass through.
type ToolConfirmationResult string

// The answers to a permission request.
const (
	ToolConfirmationAllow ToolConfirmationResult = "allow"
	ToolConfirmationDeny  ToolConfirmationResult = "deny"
)

// UserToolConfirmationEventParams answers a permission request of an
// agent.tool_use or agent.mcp_tool_use whose permission is "ask" (the
// wire type "user.tool_confirmation"). [NewAllowToolEvent] and
// [NewDenyToolEvent] build them.
type UserToolConfirmationEventParams struct {
	// ToolUseID is the id of the tool call answered, at most 128
	// characters. Required.
	ToolUseID string `json:"tool_use_id"`
	// Result is ToolConfirmationAllow or ToolConfirmationDeny. Required.
	Result ToolConfirmationResult `json:"result"`
	// DenyMessage tells the agent why, at most 10,000 characters; only
	// with ToolConfirmationDeny.
	DenyMessage string `json:"deny_message,omitzero"`
}

// NewAllowToolEvent returns a user.tool_confirmation allowing the call
// toolUseID.
func NewAllowToolEvent(toolUseID string) UserToolConfirmationEventParams {
	return UserToolConfirmationEventParams{ToolUseID: toolUseID, Result: ToolConfirmationAllow}
}

// NewDenyToolEvent returns a user.tool_confirmation denying the call
// toolUseID, telling the agent message ("" sends none).
func NewDenyToolEvent(toolUseID, message string) UserToolConfirmationEventParams {
	return UserToolConfirmationEventParams{ToolUseID: toolUseID, Result: ToolConfirmationDeny, DenyMessage: message}
}

// UserCustomToolResultEventParams is the result of an
// agent.custom_tool_use (the wire type "user.custom_tool_result").
// [NewCustomToolResultEvent] and [NewCustomToolErrorEvent] build them.
type UserCustomToolResultEventParams struct {
	// CustomToolUseID is the id of the agent.custom_tool_use answered, at
	// most 128 characters. Required.
	CustomToolUseID string `json:"custom_tool_use_id"`
	// Content is the result: at least one block that is not empty text.
	// The schema makes content optional, but the service refuses an empty
	// result with 400 (agents-sessions-environments.md §7, row 6 "Empty
	// tool output"); send a placeholder such as "(no output)".
	Content []SessionContentBlock `json:"content,omitzero"`
	// IsError reports that the tool failed.
	IsError bool `json:"is_error,omitzero"`
}

// NewCustomToolResultEvent returns the result text of the custom tool
// call customToolUseID.
func NewCustomToolResultEvent(customToolUseID, text string) UserCustomToolResultEventParams {
	return UserCustomToolResultEventParams{CustomToolUseID: customToolUseID, Content: textContent(text)}
}

// NewCustomToolErrorEvent returns a failed result of the custom tool call
// customToolUseID, message saying why.
func NewCustomToolErrorEvent(customToolUseID, message string) UserCustomToolResultEventParams {
	return UserCustomToolResultEventParams{CustomToolUseID: customToolUseID, Content: textContent(message), IsError: true}
}

// UserToolResultEventParams is the result of a sandbox tool the client
// ran for a self-hosted environment (the wire type "user.tool_result").
// [NewToolResultEvent] builds one.
type UserToolResultEventParams struct {
	// ToolUseID is the id of the agent.tool_use answered, at most 128
	// characters. Required.
	ToolUseID string `json:"tool_use_id"`
	// Content is the result: at least one block that is not empty text,
	// as for [UserCustomToolResultEventParams].
	Content []SessionContentBlock `json:"content,omitzero"`
	// IsError reports that the tool failed.
	IsError bool `json:"is_error,omitzero"`
}

// NewToolResultEvent returns the result text of the tool call toolUseID,
// failed when isError.
func NewToolResultEvent(toolUseID, text string, isError bool) UserToolResultEventParams {
	return UserToolResultEventParams{ToolUseID: toolUseID, Content: textContent(text), IsError: isError}
}

// SystemMessageEventParams is a system-role turn (the wire type
// "system.message"). It must be the last event of a send and follow a
// user message or tool result; some models refuse it.
// [NewSystemMessageEvent] builds one.
type SystemMessageEventParams struct {
	// Content is the message: at least one text block, and only text.
	Content []SessionContentBlock `json:"content"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// NewSystemMessageEvent returns a system.message holding text.
func NewSystemMessageEvent(text string) SystemMessageEventParams {
	return SystemMessageEventParams{Content: textContent(text)}
}

// textContent is content of one text block.
func textContent(text string) []SessionContentBlock {
	return []SessionContentBlock{TextBlock{Text: text}}
}

// SessionEventSendParams are the parameters of a send to a session's
// events: the events, processed in order.
//
//mms:json
type SessionEventSendParams struct {
	// Events are the events to send: at least one; at most one
	// system.message, and it comes last.
	Events []SessionEventParams `json:"events"`
}

// Validate reports the first rule the params break: no event, a nil event,
// more than one system.message or one that is not last (the service refuses
// both), or an event that breaks its own rules: a user.message without
// content, with a search_result, a document whose source is "content", or
// a Messages-only member of a block; a tool confirmation without
// tool_use_id or with one over 128 characters, with a result other than
// allow and deny, a deny_message with allow or one over 10,000 characters;
// a custom tool or tool result without its id, with one over 128
// characters, or with empty content (no block, or only empty text: the
// service refuses it, agents-sessions-environments.md §7 row 6; send a
// placeholder such as "(no output)"); a system.message with no block or
// one that is not text; a define_outcome without rubric, with a text
// rubric over 262,144 characters or max_iterations outside 1–20.
func (p SessionEventSendParams) Validate() error {
	if len(p.Events) == 0 {
		return invalid("events", "must hold at least one event")
	}
	for i, e := range p.Events {
		path := fmt.Sprintf("events[%d]", i)
		if e == nil {
			return invalid(path, "must not be nil")
		}
		if _, ok := e.(SystemMessageEventParams); ok && i != len(p.Events)-1 {
			return invalid(path, "a system.message must be the last event of a send (at most one per send)")
		}
		if err := e.validate(path); err != nil {
			return err
		}
	}
	return nil
}

// UnknownSessionEventParams keeps an event kind this SDK version cannot
// name.
type UnknownSessionEventParams struct {
	Type string
	Raw  json.RawMessage
}

func (e UserMessageEventParams) validate(path string) error {
	if len(e.Content) == 0 {
		return invalid(path+".content", "must hold at least one block")
	}
	for i, b := range e.Content {
		if _, ok := b.(SearchResultBlock); ok {
			return invalid(fmt.Sprintf("%s.content[%d]", path, i), "a search_result block is allowed only in a tool result, not in a user.message")
		}
	}
	return validateSessionBlocks(path, e.Content)
}

// validateSessionBlocks checks each block of content: not nil, valid,
// without Messages-only members.
func validateSessionBlocks(path string, content []SessionContentBlock) error {
	for i, b := range content {
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

func (e UserToolConfirmationEventParams) validate(path string) error {
	if err := validateEventToolUseID(path+".tool_use_id", e.ToolUseID); err != nil {
		return err
	}
	switch e.Result {
	case ToolConfirmationAllow:
		if e.DenyMessage != "" {
			return invalid(path+".deny_message", "is allowed only with result %q", ToolConfirmationDeny)
		}
	case ToolConfirmationDeny:
		return validateLength(path+".deny_message", e.DenyMessage, 0, wire.MaxDenyMessageLen)
	default:
		return invalid(path+".result", "must be %q or %q, got %q", ToolConfirmationAllow, ToolConfirmationDeny, e.Result)
	}
	return nil
}

func (e UserCustomToolResultEventParams) validate(path string) error {
	if err := validateEventToolUseID(path+".custom_tool_use_id", e.CustomToolUseID); err != nil {
		return err
	}
	return validateToolResultContent(path, e.Content)
}

func (e UserToolResultEventParams) validate(path string) error {
	if err := validateEventToolUseID(path+".tool_use_id", e.ToolUseID); err != nil {
		return err
	}
	return validateToolResultContent(path, e.Content)
}

// validateEventToolUseID reports a tool call id of a sent event that is
// empty or over 128 characters.
func validateEventToolUseID(path, id string) error {
	if err := requiredID(path, id); err != nil {
		return err
	}
	return validateLength(path, id, 1, wire.MaxEventToolUseIDLen)
}

// validateToolResultContent refuses an empty tool result: no block, or
// only empty text blocks. The schema lets content be left out, but the
// service answers 400 (agents-sessions-environments.md §7, row 6 "Empty
// tool output"), so the SDK is as strict as the service.
func validateToolResultContent(path string, content []SessionContentBlock) error {
	empty := true
	for _, b := range content {
		if t, ok := b.(TextBlock); !ok || t.Text != "" {
			empty = false
			break
		}
	}
	if empty {
		return invalid(path+".content", `must hold a block that is not empty text: the service refuses an empty tool result (send a placeholder such as "(no output)")`)
	}
	return validateSessionBlocks(path, content)
}

func (e SystemMessageEventParams) validate(path string) error {
	if len(e.Content) == 0 {
		return invalid(path+".content", "must hold at least one text block")
	}
	for i, b := range e.Content {
		if _, ok := b.(TextBlock); !ok && b != nil {
			return invalid(fmt.Sprintf("%s.content[%d]", path, i), "must be a text block: a system.message holds only text")
		}
	}
	return validateSessionBlocks(path, e.Content)
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
		if _, ok := b.Source.(ContentSource); ok {
			return invalid(path+".source", "must be a base64, text, url or file source in a session event, not content")
		}
		cacheControl = b.CacheControl != nil
	case SearchResultBlock:
		cacheControl = b.CacheControl != nil
	}
	if cacheControl {
		return invalid(path+".cache_control", "is not allowed in a session event")
	}
	return nil
}

// maxOutcomeIterations caps max_iterations: 20, where the service is
// stricter than its schema (agents-sessions-environments.md §4.2, row
// user.define_outcome).
const maxOutcomeIterations = wire.MaxOutcomeIterations

// validate checks the rubric and max_iterations. An empty description
// passes: the schema requires the member (always sent) but sets no
// minimum length.
func (e UserDefineOutcomeEventParams) validate(path string) error {
	switch r := e.Rubric.(type) {
	case nil:
		return invalid(path+".rubric", "is required")
	case TextRubric:
		if r.Content == "" {
			return invalid(path+".rubric.content", "is required")
		}
		if err := validateLength(path+".rubric.content", r.Content, 1, wire.MaxRubricContentLen); err != nil {
			return err
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
	// Content is the rubric's text, 1 to 262,144 characters. Required.
	Content string `json:"content"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// FileRubric is a rubric in an uploaded file (the wire type "file").
type FileRubric struct {
	// FileID names the file. Required.
	FileID string `json:"file_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownOutcomeRubric keeps a rubric kind this SDK version cannot name.
type UnknownOutcomeRubric struct {
	Type string
	Raw  json.RawMessage
}

// A SessionContentBlock is one block of a session event's content: the
// Messages [TextBlock], [ImageBlock], [DocumentBlock] and (in tool results
// only) [SearchResultBlock], a [RedactedBlock], or
// [UnknownSessionContentBlock].
type SessionContentBlock interface {
	json.Marshaler
	isSessionContentBlock()
	validate(path string) error
}

var sessionContentBlockUnion = codec.NewUnion[SessionContentBlock]("SessionContentBlock", UnknownSessionContentBlock{}).
	Add("text", TextBlock{}).
	Add("image", ImageBlock{}).
	Add("document", DocumentBlock{}).
	Add("search_result", SearchResultBlock{}).
	Add("redacted", RedactedBlock{})

// RedactedBlock stands for content the service withheld (the wire type
// "redacted").
type RedactedBlock struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownSessionContentBlock keeps a block kind this SDK version cannot
// name.
type UnknownSessionContentBlock struct {
	Type string
	Raw  json.RawMessage
}

// Exported checks of the event variants. A variant checked alone names its
// fields under "event"; [SessionEventSendParams.Validate] names them under
// events[i].

// Validate reports the first rule the event breaks; nothing is sent for it.
func (e UserMessageEventParams) Validate() error { return e.validate("event") }

// Validate reports the first rule the event breaks; nothing is sent for it.
func (e UserToolConfirmationEventParams) Validate() error { return e.validate("event") }

// Validate reports the first rule the event breaks; nothing is sent for it.
func (e UserCustomToolResultEventParams) Validate() error { return e.validate("event") }

// Validate reports the first rule the event breaks; nothing is sent for it.
func (e UserToolResultEventParams) Validate() error { return e.validate("event") }

// Validate reports the first rule the event breaks; nothing is sent for it.
func (e SystemMessageEventParams) Validate() error { return e.validate("event") }

// Validate reports the first rule the event breaks; nothing is sent for it.
func (e UserDefineOutcomeEventParams) Validate() error { return e.validate("event") }

// Validate returns nil: an interrupt has nothing to check client-side.
func (UserInterruptEventParams) Validate() error { return nil }

// Validate returns nil: an event this SDK version does not model has nothing to check client-side.
func (UnknownSessionEventParams) Validate() error { return nil }
