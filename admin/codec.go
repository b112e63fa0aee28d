package admin

import (
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// Extra is what a wire value holds beyond its modelled fields, as in
// package mms (see mms.Extra): unknown members and explicit zeros of
// optional fields, written back when the value is marshalled, so a decoded
// record re-encodes to the JSON it came from.
type Extra = map[string]json.RawMessage

// The helpers the generated glue (zz_*.go, go run ./internal/gen -dir
// admin) calls, as in the root package.

// marshalJSON is the MarshalJSON of a registered type: the response form.
func marshalJSON(v any) ([]byte, error) { return codec.MarshalOwned(v) }

// marshalRequest is the MarshalJSON of a request-only type.
func marshalRequest(v any) ([]byte, error) { return codec.MarshalRequestOwned(v) }

// unmarshalJSON is the UnmarshalJSON of a registered type (v a pointer).
func unmarshalJSON(data []byte, v any) error { return codec.UnmarshalOwned(data, v) }
