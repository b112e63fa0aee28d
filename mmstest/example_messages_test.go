package mmstest_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/mmstest"
)

// postMessages sends a Messages request to s.
func postMessages(s *mmstest.Server, body string) *http.Response {
	req, _ := http.NewRequest(http.MethodPost, s.URL+"/v1/messages", strings.NewReader(body))
	req.Header.Set("x-api-key", mmstest.DefaultAPIKey)
	req.Header.Set("vendor-version", "2023-06-01")
	req.Header.Set("content-type", "application/json")
	resp, err := s.Client().Do(req)
	if err != nil {
		panic(err)
	}
	return resp
}

// The reply echoes the last user turn and calls the custom tools it names.
func ExampleServer_messages() {
	s := mmstest.NewServer()
	defer s.Close()
	resp := postMessages(s, `{"model":"mms-large-1","max_tokens":100,
		"tools":[{"name":"get_weather","input_schema":{"type":"object",
			"properties":{"city":{"type":"string"}},"required":["city"]}}],
		"messages":[{"role":"user","content":"get_weather Oslo"}]}`)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(string(body))
	// Output:
	// {"model":"mms-large-1","id":"msg_010000000000000000000001","type":"message","role":"assistant","content":[{"type":"text","text":"You said: get_weather Oslo"},{"type":"tool_use","id":"toolu_010000000000000000000001","name":"get_weather","input":{"city":"get_weather Oslo"},"caller":{"type":"direct"}}],"container":null,"stop_reason":"tool_use","stop_sequence":null,"stop_details":null,"usage":{"input_tokens":41,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":0},"output_tokens":17,"service_tier":"standard","inference_geo":"global"}}
}

// A stream fault ends a stream with an error event after two events.
func ExampleServer_InjectStreamFault() {
	s := mmstest.NewServer()
	defer s.Close()
	s.InjectStreamFault(mmstest.StreamFault{Path: "/v1/messages", ErrorAfterEvents: 2})
	resp := postMessages(s, `{"model":"mms-large-1","max_tokens":100,"stream":true,
		"messages":[{"role":"user","content":"Hello"}]}`)
	defer resp.Body.Close()
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		if name, ok := strings.CutPrefix(lines.Text(), "event: "); ok {
			fmt.Println(name)
		}
		if data, ok := strings.CutPrefix(lines.Text(), "data: {\"type\":\"error\""); ok {
			fmt.Println(data)
		}
	}
	// Output:
	// message_start
	// content_block_start
	// error
	// ,"error":{"details":null,"type":"overloaded_error","message":"Overloaded"},"request_id":"req_010000000000000000000001"}
}
