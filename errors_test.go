package mms

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/fixtures"
)

// TestRecordedErrorBodies parses every error body into *Error: the
// project's (testdata/golden/errors) and, when present, the recorded ones
// (../shared/recorded/errors, read in place). Files are named
// <status>__<name>.json, with an optional <status>__<name>.headers.json.
func TestRecordedErrorBodies(t *testing.T) {
	n := 0
	for _, f := range fixtures.Both(t, "golden/errors/*.json", "errors/*.json") {
		base := filepath.Base(f)
		if strings.HasSuffix(base, ".request.json") || strings.HasSuffix(base, ".headers.json") {
			continue
		}
		n++
		t.Run(fixtures.Name(f), func(t *testing.T) {
			body := fixtures.Read(t, f)
			status, _ := strconv.Atoi(strings.SplitN(base, "__", 2)[0])
			header := recordedHeaders(t, strings.TrimSuffix(f, ".json")+".headers.json")
			var want struct {
				Error struct {
					Type, Message string
				}
				RequestID string `json:"request_id"`
			}
			if err := json.Unmarshal(body, &want); err != nil {
				t.Fatal(err)
			}
			wantID := header.Get("Request-Id")
			if wantID == "" {
				wantID = want.RequestID
			}
			e := newAPIError(status, header, body, 1)
			if e.StatusCode != status || e.Type != want.Error.Type || e.Message != want.Error.Message || e.RequestID != wantID {
				t.Errorf("got %d %q %q %q, want %d %q %q %q", e.StatusCode, e.Type, e.Message, e.RequestID,
					status, want.Error.Type, want.Error.Message, wantID)
			}
			if !errors.Is(e, sentinelByType[want.Error.Type]) {
				t.Errorf("%v does not match the sentinel of %s", e, want.Error.Type)
			}
			if string(e.Body) != string(body) {
				t.Error("raw body not kept")
			}
		})
	}
	if n == 0 {
		t.Fatal("no error bodies found")
	}
}

// recordedHeaders reads a headers file (none: no headers), renaming the
// real service's anthropic-* headers of the recordings to this SDK's
// vendor-* spelling.
func recordedHeaders(t *testing.T, path string) http.Header {
	h := http.Header{}
	data, err := os.ReadFile(path)
	if err != nil {
		return h
	}
	// Recorders wrote values either as a list or as one string.
	var rec struct {
		Headers map[string]json.RawMessage `json:"headers"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for k, raw := range rec.Headers {
		k = strings.Replace(strings.ToLower(k), "anthropic-", "vendor-", 1)
		var vs []string
		if json.Unmarshal(raw, &vs) != nil {
			var one string
			if err := json.Unmarshal(raw, &one); err != nil {
				t.Fatalf("%s: header %s: %v", path, k, err)
			}
			vs = []string{one}
		}
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	return h
}

func TestNonStandardErrorBodies(t *testing.T) {
	tests := []struct {
		name, body  string
		status      int
		wantMessage string
		want        error
	}{
		{"proxy HTML page", "<html>\n<body>502 Bad Gateway</body></html>", 502, "<html>", ErrAPI},
		{"empty body", "", 503, "", ErrAPI},
		{"error object without top-level type", `{"error":{"type":"overloaded_error","message":"Overloaded"}}`, 529, "Overloaded", ErrOverloaded},
		{"edge 413 plain text", "Request Entity Too Large", 413, "Request Entity Too Large", ErrRequestTooLarge},
		{"413 with invalid_request_error type", `{"type":"error","error":{"type":"invalid_request_error","message":"too big"}}`, 413, "too big", ErrInvalidRequest},
		{"unknown type falls back to status", `{"type":"error","error":{"type":"brand_new_error","message":"m"}}`, 429, "m", ErrRateLimited},
		{"long body is cut", strings.Repeat("x", 500), 500, strings.Repeat("x", 200) + "…", ErrAPI},
		{"URL userinfo in a message redacted", `{"type":"error","error":{"type":"api_error","message":"upstream https://user:SECRET@proxy.example/v1 failed"}}`, 500, "upstream https://[redacted]@proxy.example/v1 failed", ErrAPI},
		{"URL userinfo in a proxy page redacted", "502 from http://SECRET@proxy.example:8080", 502, "502 from http://[redacted]@proxy.example:8080", ErrAPI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newAPIError(tt.status, http.Header{}, []byte(tt.body), 1)
			if e.StatusCode != tt.status || e.Message != tt.wantMessage {
				t.Errorf("got %d %q, want %d %q", e.StatusCode, e.Message, tt.status, tt.wantMessage)
			}
			if !errors.Is(e, tt.want) {
				t.Errorf("%v does not match %v", e, tt.want)
			}
			if strings.Contains(e.Error(), "\n") {
				t.Errorf("Error() spans lines: %q", e.Error())
			}
		})
	}
}
