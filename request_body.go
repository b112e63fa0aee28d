package mms

import "github.com/mms-sdk/mms-go/internal/codec"

func init() {
	codec.Objects(MessageCreateParams{}, MessageCountTokensParams{}, BatchCreateParams{}, BatchRequest{})
}

// encodeMessageBody encodes a Create (or Stream) body in request form.
// members, if not empty, are inserted first (`"stream":true`), so streaming
// needs no second encoding. The encoder copies large payloads (base64
// images and PDFs, long texts) once, into a buffer of exactly the body's
// size (internal/codec, encode.go); the caller's params are not modified.
func encodeMessageBody(p *MessageCreateParams, members string) ([]byte, error) {
	return codec.MarshalRequestWith(p, members)
}

// MarshalJSON writes the request body in request form, as Create sends it
// (without "stream").
func (p MessageCreateParams) MarshalJSON() ([]byte, error) { return marshalRequest(p) }

// MarshalJSON writes the count_tokens request body in request form.
func (p MessageCountTokensParams) MarshalJSON() ([]byte, error) { return marshalRequest(p) }

// MarshalJSON writes the batch request body in request form.
func (p BatchCreateParams) MarshalJSON() ([]byte, error) { return marshalRequest(p) }
