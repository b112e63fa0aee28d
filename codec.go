package mms

// The root package's side of the codec (internal/codec): every wire type
// is registered there, by a union table (codec.NewUnion(...).Add(...)), a
// Spec, or codec.Objects, and its JSON methods are these one-liners. See
// ARCHITECTURE.md, "Unions and the codec", for how to add a variant or a
// union.

import "github.com/mms-sdk/mms-go/internal/codec"

// marshalJSON is the MarshalJSON of a registered type: the response form,
// everything it holds, Extra included.
func marshalJSON(v any) ([]byte, error) { return codec.MarshalOwned(v) }

// marshalRequest is the MarshalJSON of a request-only type: the request
// form (no unknown members, no response-only fields).
func marshalRequest(v any) ([]byte, error) { return codec.MarshalRequestOwned(v) }

// unmarshalJSON is the UnmarshalJSON of a registered type (v a pointer).
func unmarshalJSON(data []byte, v any) error { return codec.UnmarshalOwned(data, v) }
