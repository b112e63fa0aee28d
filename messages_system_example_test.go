package mms_test

import (
	"encoding/json"
	"fmt"

	mms "github.com/mms-sdk/mms-go"
)

// A system message mid-conversation: shown for the next user turn only
// (the clear_at beta is added to the request by itself).
func ExampleSystemMessage() {
	m := mms.SystemMessageText("From now on, answer in French.")
	m.ClearAt = mms.ClearAtNextUserMessage
	b, _ := json.Marshal(m)
	fmt.Println(string(b))
	// Output: {"role":"system","content":[{"type":"text","text":"From now on, answer in French."}],"clear_at":"next_user_message"}
}

// A tool defined inline, mid-conversation (beta inline-tools-2026-09-15,
// added by itself with the tool-changes beta).
func ExampleToolDefinitionRef() {
	m := mms.SystemMessage(mms.ToolAdditionBlock{Tool: mms.ToolDefinitionRef{Definition: mms.CustomTool{
		Name: "lookup_city", InputSchema: mms.InputSchema(`{"type":"object"}`), OmitType: true,
	}}})
	b, _ := json.Marshal(m)
	fmt.Println(string(b))
	// Output: {"role":"system","content":[{"type":"tool_addition","tool":{"type":"tool_definition","definition":{"name":"lookup_city","input_schema":{"type":"object"}}}}]}
}
