package mms

import (
	"encoding/json"
	"testing"

	"github.com/mms-sdk/mms-go/internal/jsonschema"
)

type fuzzOrder struct {
	ID    string         `json:"id" format:"uuid"`
	Items []fuzzItem     `json:"items"`
	Note  *string        `json:"note,omitempty"`
	Kind  string         `json:"kind" enum:"a,b"`
	When  *stSelf        `json:"when"`
	Any   any            `json:"any,omitzero"`
	Tags  map[string]int `json:"tags,omitempty"`
	Fixed [2]bool        `json:"fixed"`
	N     int64          `json:"n,string"`
}

type fuzzItem struct {
	Price float64 `json:"price"`
	Qty   uint16  `json:"qty"`
}

// FuzzDecodeSchemaValue: decoding never panics, and what it accepts
// re-encodes to JSON that validates.
func FuzzDecodeSchemaValue(f *testing.F) {
	for _, s := range []string{
		`{"id":"123e4567-e89b-12d3-a456-426614174000","items":[{"price":1.5,"qty":2}],"kind":"a","when":null,"fixed":[true,false],"n":"12"}`,
		`{"id":"123e4567-e89b-12d3-a456-426614174000","items":[],"kind":"b","when":{"value":1,"next":{"value":2}},"any":[1],"tags":{"x":1},"fixed":[false,false],"n":"-1"}`,
		`{"items":[{"price":"1"}]}`, `[]`, `null`, `{"n":"1e3"}`,
	} {
		f.Add([]byte(s))
	}
	schema, err := SchemaFor[fuzzOrder]()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := decodeSchemaValue[fuzzOrder](data)
		if err != nil {
			return
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("accepted %s, re-encoding fails: %v", data, err)
		}
		if err := jsonschema.Validate(schema, out); err != nil {
			t.Fatalf("accepted %s, re-encoded %s does not validate: %v", data, out, err)
		}
	})
}
