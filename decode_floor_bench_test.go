package mms

import (
	"encoding/json"
	"testing"
)

// plainMessage is the floor for decoding: encoding/json into plain structs
// of the same shape, every block variant flattened into one struct.
type plainMessage struct {
	ID           string        `json:"id"`
	Type         string        `json:"type"`
	Role         string        `json:"role"`
	Model        string        `json:"model"`
	Content      []plainBlock  `json:"content"`
	StopReason   string        `json:"stop_reason"`
	StopSequence *string       `json:"stop_sequence"`
	StopDetails  *plainDetails `json:"stop_details"`
	Usage        plainUsage    `json:"usage"`
}

type plainDetails struct {
	Type     string `json:"type"`
	Category string `json:"category"`
}

type plainBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Caller    *struct {
		Type string `json:"type"`
	} `json:"caller"`
	Citations []struct {
		Type           string  `json:"type"`
		CitedText      string  `json:"cited_text"`
		EncryptedIndex string  `json:"encrypted_index"`
		Title          *string `json:"title"`
		URL            string  `json:"url"`
	} `json:"citations"`
	Content []struct {
		Type             string  `json:"type"`
		URL              string  `json:"url"`
		Title            string  `json:"title"`
		PageAge          *string `json:"page_age"`
		EncryptedContent string  `json:"encrypted_content"`
	} `json:"content"`
}

type plainUsage struct {
	InputTokens              int    `json:"input_tokens"`
	OutputTokens             int    `json:"output_tokens"`
	CacheCreationInputTokens *int   `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int   `json:"cache_read_input_tokens"`
	ServiceTier              string `json:"service_tier"`
}

func BenchmarkDecodeMessage1MBFloor(b *testing.B) {
	data := bigMessageJSON()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var m plainMessage
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeMessage1MBClient is the path a response takes in the
// client: one validation pass, then the SDK's decoder.
func BenchmarkDecodeMessage1MBClient(b *testing.B) {
	data := bigMessageJSON()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var m Message
		if err := decodeInto(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeMessage1MBStdlib is json.Unmarshal into Message, what a
// user calling encoding/json directly gets.
func BenchmarkDecodeMessage1MBStdlib(b *testing.B) {
	data := bigMessageJSON()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var m Message
		if err := json.Unmarshal(data, &m); err != nil {
			b.Fatal(err)
		}
	}
}
