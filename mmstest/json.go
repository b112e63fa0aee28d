package mmstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// writeJSON answers with status and v encoded as JSON. HTML escaping is off
// because the service sends "<", ">" and "&" literally. The body is encoded
// before anything is written so Content-Length is exact; an encoding failure
// is a bug in the fake and panics.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body := append(encodeJSON(v), '\n')
	h := w.Header()
	h.Set(wire.HeaderContentType, "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body) // a failed write means the client is gone
}

// encodeJSON encodes v as compact JSON without HTML escaping and without a
// trailing newline. An encoding failure is a bug in the fake and panics.
func encodeJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("mmstest: encoding a %T: %v", v, err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// badBody decodes the strict body into v (decodeStrictJSON), answering the
// 400 itself when it cannot: handlers write
//
//	if badBody(w, r, &req) {
//		return
//	}
func badBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := decodeStrictJSON(r, v); err != nil {
		bad(w, r, err.Error())
		return true
	}
	return false
}

// decodeStrictJSON decodes the request body, a single JSON value, into v and
// refuses unknown fields as the service does. The returned error's message is
// meant for a 400 invalid_request_error answer, which badBody writes.
func decodeStrictJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, extra := dec.Token(); extra != io.EOF {
			return errors.New("request body must contain a single JSON value")
		}
		return nil
	}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("request body is empty; a JSON body is required")
	case errors.As(err, &syntax), errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("request body is not valid JSON: %v", err)
	case errors.As(err, &typ):
		return fmt.Errorf("%s: expected %s, got JSON %s", fieldName(typ.Field), typ.Type, typ.Value)
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("%s: Extra inputs are not permitted", strings.Trim(name, `"`))
	}
	return errors.New(strings.TrimPrefix(err.Error(), "json: "))
}

// fieldName names the field of a decoding error; an empty path is the body.
func fieldName(path string) string {
	if path == "" {
		return "body"
	}
	return path
}
