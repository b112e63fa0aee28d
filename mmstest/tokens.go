package mmstest

import (
	"bytes"
	"encoding/json"
)

// The fake's token estimate: one token per bytesPerToken bytes, rounded up.
// Input tokens count the compact JSON of the members below, in both
// POST /v1/messages and count_tokens, so the two always agree for the same
// request; images and documents count by their encoded size, not by pixels
// or pages as on the service. Output tokens count the text of text and
// thinking blocks and the name and input JSON of tool_use blocks.
const bytesPerToken = 4

// tokenFields are the top-level members that make up the prompt.
var tokenFields = []string{"system", "messages", "tools", "tool_choice", "thinking", "output_config",
	"output_format", "mcp_servers", "context_management"}

// tokenCount is the number of tokens in n bytes.
func tokenCount(n int) int {
	return (n + bytesPerToken - 1) / bytesPerToken
}

// inputTokens estimates the prompt of a request from its top-level members.
func inputTokens(members map[string]json.RawMessage) int {
	var buf bytes.Buffer
	for _, name := range tokenFields {
		if raw := members[name]; present(raw) {
			_ = json.Compact(&buf, raw) // valid: the request form was checked
		}
	}
	return tokenCount(buf.Len())
}
