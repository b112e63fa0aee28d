package vertex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/mms-sdk/mms-go/platform"
)

// maxErrorBody bounds the error body read for translation; a longer one
// passes through as it is.
const maxErrorBody = 1 << 20

// Response passes answers through (Vertex streams server-sent events as the
// service does) except error bodies in Google's envelope, which become the
// service's error body with the same status. A 401 drops the cached token.
func (a *adapter) Response(resp *http.Response, _ *platform.Request) (*http.Response, error) {
	if resp.StatusCode == http.StatusUnauthorized {
		a.tokens.refused()
	}
	if resp.StatusCode < 400 || resp.Body == nil {
		return resp, nil
	}
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody+1))
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("vertex: reading the %d answer: %w", resp.StatusCode, err)
	}
	if len(head) > maxErrorBody {
		resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
		return resp, nil
	}
	resp.Body.Close()
	if body, ok := serviceError(resp.StatusCode, head); ok {
		platform.SetBody(resp, body, "application/json")
	} else {
		resp.Body = io.NopCloser(bytes.NewReader(head)) // as it came
		resp.ContentLength = int64(len(head))
	}
	return resp, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// googleError is Google's error envelope.
type googleError struct {
	Type  string `json:"type"` // "error" in the service's own body
	Error struct {
		Type    string `json:"type"` // the service's error type
		Code    int    `json:"code"`
		Message string `json:"message"`
		Status  string `json:"status"`
	} `json:"error"`
}

// serviceError translates a Google error envelope (or a one-element array
// of them, as some Google front ends send) into the service's error body.
// It reports false for anything else, the service's own body included.
func serviceError(status int, body []byte) ([]byte, bool) {
	var g googleError
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var list []googleError
		if json.Unmarshal(trimmed, &list) != nil || len(list) == 0 {
			return nil, false
		}
		g = list[0]
	} else if json.Unmarshal(trimmed, &g) != nil {
		return nil, false
	}
	if g.Type == "error" || g.Error.Type != "" || (g.Error.Message == "" && g.Error.Status == "") {
		return nil, false
	}
	msg := g.Error.Message
	if g.Error.Status != "" {
		msg = fmt.Sprintf("%s (Vertex AI %s)", msg, g.Error.Status)
	}
	return platform.ErrorBody(platform.ErrorType(status), msg), true
}
