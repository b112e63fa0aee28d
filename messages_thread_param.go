package mms

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
)

// The request member thread (beta message-threads-2026-08-12): the service
// keeps the conversation between requests, so that each turn sends only its
// new messages. [MessageThread] (messages_thread.go) drives it for a
// conversation; this file holds the wire member and its rules.

const betaMessageThreads = "message-threads-2026-08-12"

// A ThreadParam is the thread member of a request (beta; the request adds
// message-threads-2026-08-12): [ThreadCreate], [ThreadContinue] or
// [UnknownThreadParam]. [MessageThread] sets it for you.
//
// A threaded request cannot carry cache_control (anywhere),
// context_management, fallbacks or thinking: Create and Stream refuse them
// before sending, as the service would (thread_unsupported_request).
type ThreadParam interface {
	isThreadParam()
}

var threadParamUnion = codec.NewUnion[ThreadParam]("ThreadParam", UnknownThreadParam{}).
	Add("create", ThreadCreate{}).
	Add("continue", ThreadContinue{})

// ThreadCreate stores the conversation on the service under the reply's id
// (Message.ID); a later request continues it with [ThreadContinue].
//
//mms:json request
type ThreadCreate struct{}

// ThreadContinue resumes the conversation stored under PreviousMessageID:
// the request's messages are only the new ones (possibly none) and it
// omits system and tools, which stay as they were at create. Each reply
// can be continued once; the reply to this request is the next one.
//
//mms:json request
type ThreadContinue struct {
	// PreviousMessageID is the id of the reply to continue. Required.
	PreviousMessageID string `json:"previous_message_id"`
}

// UnknownThreadParam holds a thread type this SDK version cannot name.
// Raw is written back verbatim.
type UnknownThreadParam struct {
	Type string
	Raw  json.RawMessage
}

// threadContinues reports whether t continues a stored conversation.
func threadContinues(t ThreadParam) bool {
	_, ok := t.(ThreadContinue)
	return ok
}

// retryClass is how Create and Stream may resend p: a threaded request
// leaves a stored conversation behind (and continuing one twice is
// refused), so it is resent only when the failed attempt provably did not
// take effect; after an ambiguous failure the error matches
// [ErrMaybeApplied].
func (p *MessageCreateParams) retryClass() transport.Retry {
	if p.Thread != nil {
		return transport.Creating
	}
	return transport.Stateless
}

// validateThread checks the thread member and what it rules out.
func (p *MessageCreateParams) validateThread() error {
	switch t := p.Thread.(type) {
	case nil:
		return nil
	case UnknownThreadParam:
		if !codec.IsObject(t.Raw) {
			return invalid("thread", "must hold a JSON object")
		}
		return nil
	case ThreadContinue:
		switch {
		case t.PreviousMessageID == "":
			return invalid("thread.previous_message_id", "is required to continue a thread (the id of the reply to continue)")
		case !p.System.IsZero():
			return invalid("system", "must be omitted when continuing a thread: the system prompt stays as it was at create (change it with a system message, or start a new thread)")
		case len(p.Tools) > 0:
			return invalid("tools", "must be omitted when continuing a thread: the tools stay as they were at create (change them with tool_addition/tool_removal blocks in a system message, or start a new thread)")
		}
	}
	return p.threadUnsupported()
}

// threadUnsupported refuses, on a threaded request, the members the
// service answers with thread_unsupported_request (details.unsupported):
// cache_control anywhere, context_management, fallbacks and thinking. The
// organization settings it also lists (hipaa, inference_hooks) cannot be
// seen from here.
func (p *MessageCreateParams) threadUnsupported() error {
	const rule = "cannot be combined with thread (the service answers thread_unsupported_request): send the request without thread"
	switch {
	case p.ContextManagement != nil:
		return invalid("context_management", rule)
	case p.Fallbacks != nil:
		return invalid("fallbacks", rule)
	case p.Thinking != nil:
		return invalid("thinking", rule)
	case p.CacheControl != nil:
		return invalid("cache_control", rule)
	}
	if path, ok := firstCacheControl("system", p.System.Blocks); ok {
		return invalid(path, rule)
	}
	if path, ok := firstCacheControl("tools", p.Tools); ok {
		return invalid(path, rule)
	}
	for i, m := range p.Messages {
		if path, ok := firstCacheControl(fmt.Sprintf("messages[%d]", i), m); ok {
			return invalid(path, rule)
		}
	}
	return nil
}

// firstCacheControl encodes v in request form and returns the path of its
// first cache_control member ("" and false when it has none or cannot be
// encoded: encoding reports that error later).
func firstCacheControl(path string, v any) (string, bool) {
	raw, err := codec.MarshalRequest(v)
	if err != nil || string(raw) == "null" {
		return "", false
	}
	return findMember(raw, "cache_control", path)
}

// opaqueMembers hold the caller's own JSON (tool inputs, schemas): a
// member named cache_control inside them is data, not a breakpoint.
var opaqueMembers = []string{"input", "input_schema", "input_examples", "schema", "metadata"}

// findMember returns the path of the first member key in raw, depth first,
// object members in sorted order, outside opaqueMembers.
func findMember(raw json.RawMessage, key, path string) (string, bool) {
	switch codec.IsObject(raw) {
	case true:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return "", false
		}
		if _, ok := obj[key]; ok && string(obj[key]) != "null" {
			return path + "." + key, true
		}
		names := make([]string, 0, len(obj))
		for k := range obj {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if slices.Contains(opaqueMembers, k) {
				continue
			}
			if p, ok := findMember(obj[k], key, path+"."+k); ok {
				return p, true
			}
		}
	default:
		if !codec.IsArray(raw) {
			return "", false
		}
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) != nil {
			return "", false
		}
		for i, v := range arr {
			if p, ok := findMember(v, key, fmt.Sprintf("%s[%d]", path, i)); ok {
				return p, true
			}
		}
	}
	return "", false
}

// dropMember returns raw without any member key outside opaqueMembers, and
// whether it removed one. Objects it changes are re-encoded with sorted
// members.
func dropMember(raw json.RawMessage, key string) (json.RawMessage, bool) {
	switch {
	case codec.IsObject(raw):
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return raw, false
		}
		_, changed := obj[key]
		delete(obj, key)
		for k, v := range obj {
			if slices.Contains(opaqueMembers, k) {
				continue
			}
			if nv, ok := dropMember(v, key); ok {
				obj[k], changed = nv, true
			}
		}
		if !changed {
			return raw, false
		}
		out, err := json.Marshal(obj)
		if err != nil {
			return raw, false
		}
		return out, true
	case codec.IsArray(raw):
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) != nil {
			return raw, false
		}
		changed := false
		for i, v := range arr {
			if nv, ok := dropMember(v, key); ok {
				arr[i], changed = nv, true
			}
		}
		if !changed {
			return raw, false
		}
		out, err := json.Marshal(arr)
		if err != nil {
			return raw, false
		}
		return out, true
	}
	return raw, false
}

// withoutCacheControl returns m without its cache breakpoints, or m itself
// when it has none.
func withoutCacheControl(m MessageParam) (MessageParam, error) {
	raw, err := codec.MarshalRequest(m)
	if err != nil {
		return m, err
	}
	stripped, changed := dropMember(raw, "cache_control")
	if !changed {
		return m, nil
	}
	var out MessageParam
	if err := json.Unmarshal(stripped, &out); err != nil {
		return m, fmt.Errorf("mms: removing cache_control from a replayed message: %w", err)
	}
	return out, nil
}
