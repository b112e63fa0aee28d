package mms

import (
	"encoding/json"
	"testing"
)

type benchOrder struct {
	ID       string            `json:"id"`
	Customer string            `json:"customer" description:"Customer name"`
	Items    []benchOrderItem  `json:"items"`
	Notes    *string           `json:"notes"`
	Tags     map[string]string `json:"tags,omitempty"`
}

type benchOrderItem struct {
	SKU      string  `json:"sku"`
	Quantity int     `json:"quantity"`
	Price    float64 `json:"price"`
	Unit     string  `json:"unit" enum:"each,kg,l"`
}

var benchOrderJSON = []byte(`{"id":"o-1","customer":"Ada","items":[{"sku":"a","quantity":2,"price":1.5,"unit":"each"},` +
	`{"sku":"b","quantity":1,"price":3.25,"unit":"kg"},{"sku":"c","quantity":4,"price":0.5,"unit":"l"}],"notes":null,"tags":{"x":"y"}}`)

// BenchmarkDecodeSchemaValue: the cost of checking model-written JSON
// against its schema (tool inputs, structured outputs) next to decoding
// it with encoding/json alone.
func BenchmarkDecodeSchemaValue(b *testing.B) {
	b.Run("validate+decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchOrderJSON)))
		for b.Loop() {
			if _, err := decodeSchemaValue[benchOrder](benchOrderJSON); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(benchOrderJSON)))
		for b.Loop() {
			var v benchOrder
			if err := json.Unmarshal(benchOrderJSON, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("SchemaFor(cached)", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := SchemaFor[benchOrder](); err != nil {
				b.Fatal(err)
			}
		}
	})
}
