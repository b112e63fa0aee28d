package mms

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/jsonschema"
)

// ErrOutputTruncated is the Err of an *OutputError for a reply cut off at
// max_tokens: errors.Is(err, ErrOutputTruncated).
var ErrOutputTruncated = errors.New("mms: structured output truncated at max_tokens")

// ErrOutputRefused is the Err of an *OutputError for a reply whose stop
// reason is refusal: errors.Is(err, ErrOutputRefused).
var ErrOutputRefused = errors.New("mms: the model refused to answer")

// OutputError is a reply whose text is not the requested structured output.
type OutputError struct {
	Text       string     // the reply's text, whole
	StopReason StopReason // max_tokens means truncated, refusal means refused
	Err        error      // why: truncated, refused, not JSON, schema mismatch (names the path)
}

// maxOutputErrorText is how much of the reply text Error quotes.
const maxOutputErrorText = 200

// Error says why the text is not the output, quoting its start.
func (e *OutputError) Error() string {
	text := e.Text
	if len(text) > maxOutputErrorText {
		cut := maxOutputErrorText
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…(" + strconv.Itoa(len(e.Text)) + " bytes)"
	}
	return fmt.Sprintf("mms: reply is not the structured output (stop_reason %q): %v; text %q", e.StopReason, e.Err, text)
}

// Unwrap returns Err.
func (e *OutputError) Unwrap() error { return e.Err }

// OutputFormatFor returns output_config.format for T: the schema
// SchemaFor[T] gives. It also checks the service's structured-output limits
// (every object additionalProperties:false, so no maps; supported formats
// only), a *SchemaError naming the field otherwise.
func OutputFormatFor[T any]() (*OutputFormat, error) {
	t := reflect.TypeFor[T]()
	e := schemaEntryOf(t)
	if e.err != nil {
		c := *e.err
		return nil, &c
	}
	fail := func(path, reason string) error {
		if path != "" {
			path = strings.TrimPrefix(t.Name()+path, ".")
		}
		return &SchemaError{Type: t, Path: path, Reason: reason}
	}
	if e.hasMap {
		return nil, fail(e.mapPath, "a map is an object without additionalProperties:false, which structured outputs reject; use a struct or a slice of key/value structs")
	}
	for _, r := range e.raws {
		var v any
		if err := json.Unmarshal(r.raw, &v); err != nil {
			return nil, fail(r.path, "JSONSchema: "+err.Error())
		}
		if reason := strictSchema(v, "#"); reason != "" {
			return nil, fail(r.path, "JSONSchema: "+reason)
		}
	}
	return &OutputFormat{Schema: e.schema}, nil
}

// strictSchema walks a schema for what structured outputs reject: an object
// schema without additionalProperties:false, an unsupported format. at is
// the JSON pointer within the schema.
func strictSchema(v any, at string) string {
	switch v := v.(type) {
	case []any:
		for i, e := range v {
			if r := strictSchema(e, at+"/"+strconv.Itoa(i)); r != "" {
				return r
			}
		}
	case map[string]any:
		if isObjectSchema(v["type"]) || v["properties"] != nil {
			if b, ok := v["additionalProperties"].(bool); !ok || b {
				return at + ": an object schema without additionalProperties:false"
			}
		}
		if f, ok := v["format"].(string); ok && !jsonschema.FormatSupported(f) {
			return at + ": format " + strconv.Quote(f) + " is not supported"
		}
		for k, e := range v {
			if k == "enum" || k == "const" {
				continue // values, not schemas
			}
			if r := strictSchema(e, at+"/"+k); r != "" {
				return r
			}
		}
	}
	return ""
}

func isObjectSchema(t any) bool {
	switch t := t.(type) {
	case string:
		return t == "object"
	case []any:
		for _, e := range t {
			if e == "object" {
				return true
			}
		}
	}
	return false
}

// ParseOutput decodes the reply's text as a T: a Message from Create, or an
// accumulated stream's (acc.Message()). A reply that is not a T is an
// *OutputError, never a zero value with nil error: a refusal (Err
// ErrOutputRefused), empty text, text that is not JSON or does not match
// SchemaFor[T] (Err names the JSON path).
//
// A reply stopped at max_tokens is returned when its text is whole: it
// validates and does not end in a bare number, which a cut could have
// shortened. Otherwise its Err wraps ErrOutputTruncated.
func ParseOutput[T any](m *Message) (T, error) {
	var zero T
	if m == nil {
		return zero, &OutputError{Err: errors.New("no message")}
	}
	text := m.Text()
	fail := func(err error) (T, error) {
		if m.StopReason == StopReasonMaxTokens {
			err = fmt.Errorf("%w: %w", ErrOutputTruncated, err)
		}
		return zero, &OutputError{Text: text, StopReason: m.StopReason, Err: err}
	}
	if m.StopReason == StopReasonRefusal {
		err := ErrOutputRefused
		if d := m.StopDetails; d != nil && d.Explanation != nil {
			err = fmt.Errorf("%w: %s", ErrOutputRefused, *d.Explanation)
		}
		return zero, &OutputError{Text: text, StopReason: m.StopReason, Err: err}
	}
	if strings.TrimSpace(text) == "" {
		return fail(errors.New("the reply has no text"))
	}
	v, err := decodeSchemaValue[T]([]byte(text))
	if err != nil {
		return fail(err)
	}
	if m.StopReason == StopReasonMaxTokens && endsInNumber(text) {
		return fail(errors.New("the text ends in a number the cut may have shortened"))
	}
	return v, nil
}

// endsInNumber reports valid JSON text whose last token is a number: only a
// bare number can be cut short and still be valid JSON.
func endsInNumber(text string) bool {
	t := strings.TrimRight(text, " \t\r\n")
	return t != "" && (t[len(t)-1] >= '0' && t[len(t)-1] <= '9' || t[len(t)-1] == '.')
}
