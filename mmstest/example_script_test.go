package mmstest_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/mmstest"
)

// A script decides what the fake "model" does, turn by turn: here a call
// of the request's tool, then a final answer; after the script, the
// deterministic reply. (Tests of SDK code use mmstest/fakeclient.)
func ExampleServer_Script() {
	s := mmstest.NewServer()
	defer s.Close()
	s.Script(
		mmstest.Turn{ToolCalls: []mmstest.ToolCall{{Name: "get_time", Input: `{"zone":"UTC"}`}}},
		mmstest.Turn{Text: "It is noon."},
	)
	body := `{"model":"mms-large-1","max_tokens":256,` +
		`"tools":[{"name":"get_time","input_schema":{"type":"object"}}],` +
		`"messages":[{"role":"user","content":"What time is it?"}]}`
	for range 3 {
		req, _ := http.NewRequest(http.MethodPost, s.URL+"/v1/messages", strings.NewReader(body))
		req.Header.Set("x-api-key", mmstest.DefaultAPIKey)
		req.Header.Set("vendor-version", "2023-06-01")
		req.Header.Set("content-type", "application/json")
		resp, err := s.Client().Do(req)
		if err != nil {
			panic(err)
		}
		reply, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		content := string(reply[strings.Index(string(reply), `"content"`):strings.Index(string(reply), `,"stop_sequence"`)])
		fmt.Println(content)
	}
	// Output:
	// "content":[{"type":"text","text":"You said: What time is it?"},{"type":"tool_use","id":"toolu_010000000000000000000001","name":"get_time","input":{"zone":"UTC"},"caller":{"type":"direct"}}],"container":null,"stop_reason":"tool_use"
	// "content":[{"type":"text","text":"It is noon."}],"container":null,"stop_reason":"end_turn"
	// "content":[{"type":"text","text":"You said: What time is it?"}],"container":null,"stop_reason":"end_turn"
}
