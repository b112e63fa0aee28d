package mmstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Message threads (beta message-threads-2026-08-12): a create request with
// thread {type:"create"} stores its conversation (the messages, the reply,
// the system prompt and tools) under the reply's id; a request with
// {type:"continue", previous_message_id} answers the stored conversation
// followed by its own messages, and its reply is stored in turn. The rules,
// in the order they apply:
//
//   - cache_control (anywhere: top level, system, tools, messages),
//     context_management, fallbacks or thinking on a threaded request: 400
//     thread_unsupported_request with details.unsupported listing them;
//   - continue with system or tools: 400 (they are fixed at create);
//   - an unknown (or dropped, Server.DropThread) previous_message_id: 404
//     thread_not_found;
//   - a reply whose continuation is still being answered (until its
//     response, or its stream, ends): 400 thread_continue_in_flight; one
//     already continued: 400 thread_already_continued;
//   - a fingerprint member that differs from the stored conversation's:
//     400 thread_fingerprint_mismatch naming the members. The fingerprint
//     is threadFingerprint: model, inference_geo, mcp_servers,
//     output_format, output_config.format and speed.
//
// A refused continuation does not use the reply up: it can be continued
// again. Messages, tool choice, max_tokens, stop sequences, metadata,
// container and the other members may change from turn to turn.

// threadFingerprint are the members that must stay equal across the turns
// of a thread ("output_config.format" is the member inside output_config).
var threadFingerprint = []string{"model", "inference_geo", "mcp_servers", "output_format", "output_config.format", "speed"}

// threadParam is a request's thread member.
type threadParam struct {
	Type              string `json:"type"`
	PreviousMessageID string `json:"previous_message_id"`
}

// storedThread is a conversation stored under a reply id.
type storedThread struct {
	messages    []turnParam
	system      json.RawMessage
	tools       []toolParam
	toolsRaw    json.RawMessage
	fingerprint map[string]string
	inFlight    bool // a continuation is being answered
	continued   bool // a continuation was answered
}

// DropThread forgets the conversation stored under the reply id, as when
// the service no longer holds it: continuing it answers 404
// thread_not_found. It reports whether there was one.
func (s *Server) DropThread(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.threads[id]
	delete(s.threads, id)
	return ok
}

// resolveThread applies the thread rules to a parsed request and, for a
// continuation, puts the stored conversation in front of its messages and
// gives it the stored system prompt and tools. It changes no state (the
// Files rules parse a request twice): beginThread claims the reply.
func (s *Server) resolveThread(p *msgParams) *apiError {
	if p.Thread == nil {
		return nil
	}
	if unsupported := p.threadUnsupported(); len(unsupported) > 0 {
		return coded(http.StatusBadRequest, "thread_unsupported_request",
			fmt.Sprintf("thread: %s cannot be used with message threads; send the request without thread", strings.Join(unsupported, ", ")),
			map[string]any{"unsupported": unsupported})
	}
	if p.Thread.Type != "continue" {
		return nil
	}
	for _, m := range []string{"system", "tools"} {
		if present(p.members[m]) {
			return invalid("%s: must be omitted when thread.type is continue: the thread keeps the %s it was created with", m, m)
		}
	}
	s.mu.Lock()
	t := s.threads[p.Thread.PreviousMessageID]
	var err *apiError
	if t == nil {
		err = coded(http.StatusNotFound, "thread_not_found",
			fmt.Sprintf("thread.previous_message_id: no thread is stored for %s", p.Thread.PreviousMessageID), nil)
	} else {
		err = s.claimable(t, p.Thread.PreviousMessageID)
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	if diff := t.differs(p.fingerprint()); len(diff) > 0 {
		return coded(http.StatusBadRequest, "thread_fingerprint_mismatch",
			fmt.Sprintf("thread: %s must stay as the thread was created, but changed", strings.Join(diff, ", ")), nil)
	}
	p.Messages = append(slices.Clone(t.messages), p.Messages...)
	p.Tools = t.tools
	p.members["messages"] = encodeJSON(p.Messages)
	p.members["system"], p.members["tools"] = t.system, t.toolsRaw
	return nil
}

// claimable says why t's reply cannot be continued now, or nil. s.mu is
// held.
func (s *Server) claimable(t *storedThread, id string) *apiError {
	switch {
	case t.inFlight:
		return coded(http.StatusBadRequest, "thread_continue_in_flight",
			fmt.Sprintf("thread.previous_message_id: %s is being continued by another request", id), nil)
	case t.continued:
		return coded(http.StatusBadRequest, "thread_already_continued",
			fmt.Sprintf("thread.previous_message_id: %s was already continued; continue the latest reply, or create a new thread", id), nil)
	}
	return nil
}

// beginThread claims the reply a continuation continues, until endThread.
func (s *Server) beginThread(p *msgParams) *apiError {
	if p.Thread == nil || p.Thread.Type != "continue" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.threads[p.Thread.PreviousMessageID]
	if t == nil { // dropped since resolveThread
		return coded(http.StatusNotFound, "thread_not_found",
			fmt.Sprintf("thread.previous_message_id: no thread is stored for %s", p.Thread.PreviousMessageID), nil)
	}
	if err := s.claimable(t, p.Thread.PreviousMessageID); err != nil {
		return err
	}
	t.inFlight = true
	return nil
}

// storeThread stores the conversation of an answered threaded request
// under the reply's id; a continuation uses its reply up.
func (s *Server) storeThread(p *msgParams, rep reply) {
	if p.Thread == nil || (p.Thread.Type != "create" && p.Thread.Type != "continue") {
		return
	}
	answer := turnParam{Role: "assistant", Content: encodeJSON(rep.message(p).Content)}
	t := &storedThread{
		messages:    append(slices.Clone(p.Messages), answer),
		system:      p.members["system"],
		tools:       p.Tools,
		toolsRaw:    p.members["tools"],
		fingerprint: p.fingerprint(),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.threads == nil {
		s.threads = map[string]*storedThread{}
	}
	s.threads[rep.id] = t
	if p.Thread.Type == "continue" {
		if prev := s.threads[p.Thread.PreviousMessageID]; prev != nil {
			prev.continued = true
		}
	}
}

// endThread releases the reply a continuation claimed: once its answer
// (or stream) is over.
func (s *Server) endThread(p *msgParams) {
	if p == nil || p.Thread == nil || p.Thread.Type != "continue" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.threads[p.Thread.PreviousMessageID]; t != nil {
		t.inFlight = false
	}
}

// fingerprint returns the request's threadFingerprint members as compact
// JSON ("" for absent or null).
func (p *msgParams) fingerprint() map[string]string {
	out := make(map[string]string, len(threadFingerprint))
	for _, name := range threadFingerprint {
		raw := p.members[name]
		if name == "output_config.format" {
			raw = nil
			if p.OutputConfig != nil {
				raw = p.OutputConfig.Format
			}
		}
		if !present(raw) {
			out[name] = ""
			continue
		}
		var buf bytes.Buffer
		_ = json.Compact(&buf, raw)
		out[name] = buf.String()
	}
	return out
}

// differs lists the fingerprint members of now that differ from t's, in
// threadFingerprint order.
func (t *storedThread) differs(now map[string]string) []string {
	var out []string
	for _, name := range threadFingerprint {
		if t.fingerprint[name] != now[name] {
			out = append(out, name)
		}
	}
	return out
}

// threadUnsupported lists the members a threaded request cannot carry, in
// the order of details.unsupported.
func (p *msgParams) threadUnsupported() []string {
	var out []string
	cc := present(p.members["cache_control"])
	for _, m := range []string{"system", "tools", "messages"} {
		cc = cc || hasMember(p.members[m], "cache_control")
	}
	if cc {
		out = append(out, "cache_control")
	}
	for _, m := range []string{"context_management", "fallbacks", "thinking"} {
		if present(p.members[m]) {
			out = append(out, m)
		}
	}
	return out
}

// hasMember reports whether raw holds a non-null member key at any depth,
// outside tool inputs and schemas (the caller's own JSON).
func hasMember(raw json.RawMessage, key string) bool {
	switch jsonKind(raw) {
	case '{':
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return false
		}
		for k, v := range obj {
			switch {
			case k == key && present(v):
				return true
			case k == "input" || k == "input_schema" || k == "input_examples" || k == "schema":
			case hasMember(v, key):
				return true
			}
		}
	case '[':
		var arr []json.RawMessage
		if json.Unmarshal(raw, &arr) != nil {
			return false
		}
		for _, v := range arr {
			if hasMember(v, key) {
				return true
			}
		}
	}
	return false
}

// noMessages reports whether a create body that passed the request form
// has an empty messages list, which the form allows for a thread
// continuation only.
func noMessages(body json.RawMessage) bool {
	var b struct {
		Messages []json.RawMessage `json:"messages"`
	}
	return json.Unmarshal(body, &b) == nil && len(b.Messages) == 0
}
