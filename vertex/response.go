package vertex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/mms-sdk/mms-go/platform"
)

// Response passes answers through (Vertex streams server-sent events as the
// service does) except error bodies in Google's envelope, which become the
// service's error body with the same status. A 401 drops the cached token.
func (a *adapter) Response(resp *http.Response, _ *platform.Request) (*http.Response, error) {
	if resp.StatusCode == http.StatusUnauthorized {
		a.tokens.refused()
	}
	return platform.TranslateError(resp, googleMessage)
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

// googleMessage reads the message of a Google error envelope (or of a
// one-element array of them, as some Google front ends send), for
// platform.TranslateError. It reports false for anything else, the
// service's own body included.
func googleMessage(body []byte) (typ, msg string, ok bool) {
	var g googleError
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var list []googleError
		if json.Unmarshal(trimmed, &list) != nil || len(list) == 0 {
			return "", "", false
		}
		g = list[0]
	} else if json.Unmarshal(trimmed, &g) != nil {
		return "", "", false
	}
	if g.Type == "error" || g.Error.Type != "" || (g.Error.Message == "" && g.Error.Status == "") {
		return "", "", false
	}
	msg = g.Error.Message
	if g.Error.Status != "" {
		msg = fmt.Sprintf("%s (Vertex AI %s)", msg, g.Error.Status)
	}
	return "", msg, true
}
