package vertextest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/vertex"
)

const modelsPath = "/v1/projects/" + Project + "/locations/" + Region + "/publishers/vendor/models/"

// post sends body to path on srv with the bearer token (none when "").
func post(t *testing.T, srv *mmstest.Server, path, token string, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("vendor-version", "2023-06-01")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func validToken(t *testing.T, ts *TokenSource) string {
	t.Helper()
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

const message = `{"vendor_version":"vertex-2023-10-16","max_tokens":16,"messages":[{"role":"user","content":"Hello"}]}`

// padded is body padded with spaces (still the same JSON) to size bytes.
func padded(body string, size int) []byte {
	return append([]byte(body), bytes.Repeat([]byte(" "), size-len(body))...)
}

func TestFrontRules(t *testing.T) {
	tests := []struct {
		name       string
		path       string
		token      string // "valid", "expired", "unknown" or ""
		body       []byte
		wantStatus int
		wantBody   string // substring
	}{
		{name: "create", path: modelsPath + "mms-large-1:rawPredict", token: "valid", body: []byte(message), wantStatus: 200, wantBody: `"model":"mms-large-1"`},
		{name: "count tokens keeps the model", path: modelsPath + "count-tokens:rawPredict", token: "valid",
			body: []byte(`{"vendor_version":"vertex-2023-10-16","model":"mms-large-1","messages":[{"role":"user","content":"Hello"}]}`), wantStatus: 200, wantBody: `"input_tokens"`},
		{name: "stream", path: modelsPath + "mms-large-1:streamRawPredict", token: "valid",
			body: []byte(`{"vendor_version":"vertex-2023-10-16","stream":true,"max_tokens":16,"messages":[{"role":"user","content":"Hello"}]}`), wantStatus: 200, wantBody: "event: message_stop"},
		{name: "no token", path: modelsPath + "mms-large-1:rawPredict", body: []byte(message), wantStatus: 401, wantBody: `"status":"UNAUTHENTICATED"`},
		{name: "token never issued", path: modelsPath + "mms-large-1:rawPredict", token: "unknown", body: []byte(message), wantStatus: 401, wantBody: `"status":"UNAUTHENTICATED"`},
		{name: "expired token", path: modelsPath + "mms-large-1:rawPredict", token: "expired", body: []byte(message), wantStatus: 401, wantBody: "has expired"},
		{name: "other project", path: "/v1/projects/other/locations/" + Region + "/publishers/vendor/models/m:rawPredict", token: "valid", body: []byte(message), wantStatus: 404, wantBody: `"status":"NOT_FOUND"`},
		{name: "service path", path: "/v1/messages", token: "valid", body: []byte(message), wantStatus: 404, wantBody: `"status":"NOT_FOUND"`},
		{name: "unknown method", path: modelsPath + "m:predict", token: "valid", body: []byte(message), wantStatus: 404, wantBody: "Method predict not found"},
		{name: "query", path: modelsPath + "mms-large-1:rawPredict?beta=true", token: "valid", body: []byte(message), wantStatus: 400, wantBody: "no query"},
		{name: "no vendor_version", path: modelsPath + "mms-large-1:rawPredict", token: "valid", body: []byte(`{"max_tokens":16,"messages":[]}`), wantStatus: 400, wantBody: `vendor_version: must be`},
		{name: "model in a messages body", path: modelsPath + "mms-large-1:rawPredict", token: "valid",
			body: []byte(`{"vendor_version":"vertex-2023-10-16","model":"mms-large-1","max_tokens":16,"messages":[]}`), wantStatus: 400, wantBody: "model: not allowed"},
		{name: "stream on rawPredict", path: modelsPath + "mms-large-1:rawPredict", token: "valid",
			body: []byte(`{"vendor_version":"vertex-2023-10-16","stream":true,"max_tokens":16,"messages":[]}`), wantStatus: 400, wantBody: "stream: must be true exactly"},
		{name: "not an object", path: modelsPath + "mms-large-1:rawPredict", token: "valid", body: []byte(`[]`), wantStatus: 400, wantBody: `"status":"INVALID_ARGUMENT"`},
		{name: "at the limit passes the size check", path: modelsPath + "mms-large-1:rawPredict", token: "valid",
			body: padded(message, vertex.MaxBodySize), wantStatus: 200, wantBody: `"model":"mms-large-1"`},
		{name: "one byte over the limit", path: modelsPath + "mms-large-1:rawPredict", token: "valid",
			body: padded(message, vertex.MaxBodySize+1), wantStatus: 413, wantBody: "exceeds the limit"},
		{name: "service errors pass through", path: modelsPath + "no-such-model:rawPredict", token: "valid", body: []byte(message), wantStatus: 404, wantBody: `"type":"not_found_error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := &TokenSource{}
			srv := mmstest.NewServer(mmstest.WithPlatform(Front(ts)))
			defer srv.Close()
			var token string
			switch tt.token {
			case "valid":
				token = validToken(t, ts)
			case "expired":
				token = validToken(t, ts)
				ts.Expire()
			case "unknown":
				token = "ya29.forged"
			}
			status, body := post(t, srv, tt.path, token, tt.body)
			if status != tt.wantStatus || !strings.Contains(body, tt.wantBody) {
				t.Errorf("got %d %.300s; want %d with %s", status, body, tt.wantStatus, tt.wantBody)
			}
			if tt.wantStatus != 200 && !strings.Contains(body, `"type":"`) {
				// A front refusal is in Google's envelope, never the service's.
				var g struct {
					Error struct {
						Code   int    `json:"code"`
						Status string `json:"status"`
					} `json:"error"`
				}
				if err := json.Unmarshal([]byte(body), &g); err != nil || g.Error.Code != tt.wantStatus || g.Error.Status == "" {
					t.Errorf("refusal %s is not a Google error envelope", body)
				}
			}
		})
	}
}

func TestFrontLifetime(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var now atomic.Int64 // the handler reads the clock in another goroutine
	ts := &TokenSource{Lifetime: time.Minute, Now: func() time.Time { return time.Unix(0, now.Load()) }}
	now.Store(start.UnixNano())
	srv := mmstest.NewServer(mmstest.WithPlatform(Front(ts)))
	defer srv.Close()
	token := validToken(t, ts)
	for _, tt := range []struct {
		at   time.Time
		want int
	}{
		{start.Add(time.Minute - time.Nanosecond), 200},
		{start.Add(time.Minute), 401},
	} {
		now.Store(tt.at.UnixNano())
		if status, body := post(t, srv, modelsPath+"mms-large-1:rawPredict", token, []byte(message)); status != tt.want {
			t.Errorf("at %v: %d %s; want %d", tt.at.Sub(start), status, body, tt.want)
		}
	}
}

func TestFrontFailNext(t *testing.T) {
	ts := &TokenSource{}
	front := Front(ts, WithExpireOnFailure())
	srv := mmstest.NewServer(mmstest.WithPlatform(front))
	defer srv.Close()
	front.FailNext(503)
	token := validToken(t, ts)
	got := []int{}
	for range 2 {
		status, _ := post(t, srv, modelsPath+"mms-large-1:rawPredict", token, []byte(message))
		got = append(got, status)
	}
	fresh := validToken(t, ts)
	status, _ := post(t, srv, modelsPath+"mms-large-1:rawPredict", fresh, []byte(message))
	got = append(got, status)
	// The failed request's token is expired: only a new one gets through.
	if diff := cmp.Diff([]int{503, 401, 200}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	want := []Attempt{
		{Path: modelsPath + "mms-large-1:rawPredict", Token: token, Status: 503},
		{Path: modelsPath + "mms-large-1:rawPredict", Token: token, Status: 401},
		{Path: modelsPath + "mms-large-1:rawPredict", Token: fresh},
	}
	if diff := cmp.Diff(want, front.Attempts()); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
}
