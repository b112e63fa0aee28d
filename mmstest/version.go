package mmstest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// API version 2026-10-21 (api-version-2026-10-21.md §2): the request
// shapes it refuses in Messages bodies (create, stream, count_tokens and
// each request of a batch created with it). The header was checked by the
// rule chain (checkVersion); these run after the request form.

// versionRefusal is the 400 a Messages body (at prefix: "" or
// "requests.3.params.") gets under version v, or nil.
func versionRefusal(v string, body []byte, prefix string) *apiError {
	if !wire.VersionRefuses(v) {
		return nil
	}
	for name, raw := range jsonMembers(body) {
		switch {
		case slices.Contains(wire.SamplingParams, name):
			// Refused whatever the value, defaults included, as an extra input.
			return invalid("%s%s: Extra inputs are not permitted (API version %s)", prefix, name, v)
		case name == "messages" && jsonKind(raw) == '[':
			if err := versionTurns(v, raw, prefix); err != nil {
				return err
			}
		}
	}
	return nil
}

// versionTurns refuses a document block directly in an assistant turn and a
// text block with a non-empty citations array in a user turn.
func versionTurns(v string, messages []byte, prefix string) *apiError {
	i := 0
	for turn := range jsonElements(messages) {
		var t turnParam
		if json.Unmarshal(turn, &t) != nil || jsonKind(t.Content) != '[' {
			i++
			continue
		}
		j := 0
		for block := range jsonElements(t.Content) {
			var b struct {
				Type      string          `json:"type"`
				Citations json.RawMessage `json:"citations"`
			}
			_ = json.Unmarshal(block, &b)
			path := prefix + "messages." + strconv.Itoa(i) + ".content." + strconv.Itoa(j)
			switch {
			case t.Role == "assistant" && b.Type == "document":
				return invalid("%s: a document block is not allowed in an assistant message (API version %s)", path, v)
			case t.Role == "user" && b.Type == "text" && jsonKind(b.Citations) == '[' && nonEmptyArray(b.Citations):
				return invalid("%s.citations: citations are not allowed on text blocks in user messages (API version %s)", path, v)
			}
			j++
		}
		i++
	}
	return nil
}

// nonEmptyArray reports whether raw (an array) has an element.
func nonEmptyArray(raw []byte) bool {
	for range jsonElements(raw) {
		return true
	}
	return false
}

// requestVersion is the API version a request was sent with.
func requestVersion(r *http.Request) string { return r.Header.Get(wire.HeaderVersion) }
