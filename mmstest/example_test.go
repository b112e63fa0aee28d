package mmstest_test

import (
	"fmt"
	"io"
	"net/http"

	"github.com/mms-sdk/mms-go/mmstest"
)

// The fake answers like the service: here a request whose first attempt hits
// an injected overload, then succeeds.
func ExampleServer_InjectFault() {
	s := mmstest.NewServer()
	defer s.Close()
	s.InjectFault(mmstest.Fault{Path: "/v1/models", Statuses: []int{529}, RetryAfter: "1"})

	for range 2 {
		req, _ := http.NewRequest(http.MethodGet, s.URL+"/v1/models/mms-small-1", nil)
		req.Header.Set("x-api-key", mmstest.DefaultAPIKey)
		req.Header.Set("vendor-version", "2023-06-01")
		resp, err := s.Client().Do(req)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("request-id"))
		if resp.StatusCode != 200 {
			fmt.Print("retry-after: ", resp.Header.Get("retry-after"), "\n", string(body))
		}
	}
	// Output:
	// 529 req_010000000000000000000001
	// retry-after: 1
	// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_010000000000000000000001"}
	// 200 req_010000000000000000000002
}
