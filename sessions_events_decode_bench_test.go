package mms

import (
	"encoding/json"
	"testing"
	"time"
)

// benchSessionEvent is a typical stored event: an agent.message with text.
const benchSessionEvent = `{"type":"agent.message","id":"sevt_011CZkZ0011q4m7Lx2m8yR3v7a","content":[{"type":"text","text":"It is 18°C in Paris, with a light breeze from the west and clear skies until the evening."}],"processed_at":"2026-04-02T10:00:08.096Z"}`

// BenchmarkSessionEventDecode decodes one session event as a stream
// delivers it (validation, the union by "type", the typed variant).
func BenchmarkSessionEventDecode(b *testing.B) {
	data := []byte(benchSessionEvent)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := decodeSessionEvent("agent.message", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionEventDecodeFloor is the floor: encoding/json into a
// struct of the event's fields, with the content's blocks as raw JSON
// decoded by their "type" (the least a typed decoder must do).
func BenchmarkSessionEventDecodeFloor(b *testing.B) {
	data := []byte(benchSessionEvent)
	type text struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	type event struct {
		Type        string            `json:"type"`
		ID          string            `json:"id"`
		Content     []json.RawMessage `json:"content"`
		ProcessedAt time.Time         `json:"processed_at"`
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var e event
		if err := json.Unmarshal(data, &e); err != nil {
			b.Fatal(err)
		}
		for _, c := range e.Content {
			var t text
			if err := json.Unmarshal(c, &t); err != nil {
				b.Fatal(err)
			}
		}
	}
}
