package mmstest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// POST /v1/messages and POST /v1/messages/count_tokens. The
// package documentation states the rules and the reply; parseMessages
// applies them in this order: the request form (messages_schema.go), the
// conversation rules (messages_check.go), the model and its limits
// (checkModel).

// msgParams is the fake's view of a request body that passed the request
// form: only what the rules and the reply read.
type msgParams struct {
	Model               string             `json:"model"`
	MaxTokens           int                `json:"max_tokens"`
	Messages            []turnParam        `json:"messages"`
	Tools               []toolParam        `json:"tools"`
	ToolChoice          *toolChoiceParam   `json:"tool_choice"`
	Thinking            *thinkingParam     `json:"thinking"`
	OutputConfig        *outputConfigParam `json:"output_config"`
	OutputFormat        json.RawMessage    `json:"output_format"`
	StopSequences       []string           `json:"stop_sequences"`
	Stream              bool               `json:"stream"`
	InferenceGeo        *string            `json:"inference_geo"`
	UserProfileID       *string            `json:"user_profile_id"`
	ContextManagement   json.RawMessage    `json:"context_management"`
	Fallbacks           json.RawMessage    `json:"fallbacks"`
	FallbackCreditToken json.RawMessage    `json:"fallback_credit_token"`
	Container           json.RawMessage    `json:"container"`
	Compaction          *compactionParam   `json:"compaction"`
	BillingPolicy       *struct {
		BillTo string `json:"bill_to"`
	} `json:"billing_policy"`
	Thread *threadParam `json:"thread"` // messages_threads.go

	count   bool                       // a count_tokens request
	members map[string]json.RawMessage // the top-level members, for the token estimate
	model   Model                      // the model served
}

type turnParam struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string or an array of blocks
}

// blockParam holds the members of a content block the rules read.
type blockParam struct {
	Type            string          `json:"type"`
	Text            string          `json:"text"`
	Thinking        string          `json:"thinking"`
	Signature       string          `json:"signature"`
	ID              string          `json:"id"`
	Name            string          `json:"name"`  // tool_use, server_tool_use
	Input           json.RawMessage `json:"input"` // tool_use, server_tool_use
	ToolUseID       string          `json:"tool_use_id"`
	ToolsetName     string          `json:"toolset_name"`
	IsError         bool            `json:"is_error"`
	Content         json.RawMessage `json:"content"`
	Source          *sourceParam    `json:"source"`
	Citations       json.RawMessage `json:"citations"` // a document's {"enabled":…}; a text block's list
	Title           *string         `json:"title"`
	Transformations *struct {
		OversizedImage string `json:"oversized_image"`
	} `json:"transformations"`
}

type sourceParam struct {
	Type      string          `json:"type"`
	MediaType string          `json:"media_type"`
	Data      string          `json:"data"`
	Content   json.RawMessage `json:"content"`
	FileID    string          `json:"file_id"`
}

type toolParam struct {
	Type           *string         `json:"type"`
	Name           string          `json:"name"`
	InputSchema    json.RawMessage `json:"input_schema"`
	AllowedDomains json.RawMessage `json:"allowed_domains"`
	BlockedDomains json.RawMessage `json:"blocked_domains"`
	Configs        map[string]*struct {
		Enabled *bool `json:"enabled"`
	} `json:"configs"` // a toolset's members (messages_toolsets.go)
}

// custom reports whether t is a custom (client) tool.
func (t toolParam) custom() bool { return t.Type == nil || *t.Type == "custom" }

// clientRun reports whether the client runs t's calls: a custom tool, or
// a built-in tool the client executes (memory, bash, text editor,
// computer).
func (t toolParam) clientRun() bool {
	if t.custom() {
		return true
	}
	if strings.Contains(*t.Type, "_toolset_") {
		return false // its members are called by action (messages_toolsets.go)
	}
	for _, prefix := range []string{"memory_", "bash_", "text_editor_", "computer_"} {
		if strings.HasPrefix(*t.Type, prefix) {
			return true
		}
	}
	return false
}

type toolChoiceParam struct {
	Type                   string `json:"type"`
	Name                   string `json:"name"`
	DisableParallelToolUse bool   `json:"disable_parallel_tool_use"`
}

type thinkingParam struct {
	Type         string  `json:"type"`
	BudgetTokens int     `json:"budget_tokens"`
	Display      *string `json:"display"`
}

type outputConfigParam struct {
	Effort *string         `json:"effort"`
	Format json.RawMessage `json:"format"`
}

// thinkingOn reports whether the request enables thinking.
func (p *msgParams) thinkingOn() bool {
	return p.Thinking != nil && (p.Thinking.Type == "enabled" || p.Thinking.Type == "adaptive")
}

// present reports whether a raw member was sent with a non-null value.
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && jsonKind(raw) != 'n'
}

// apiError is a refusal with its status and error type.
type apiError struct {
	status  int
	errType string
	msg     string
	// details is error.details (error_code and its members); nil for
	// none. See coded.
	details map[string]any
}

func (e *apiError) Error() string { return e.msg }

// invalid returns a 400 invalid_request_error.
func invalid(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, errType: wire.ErrInvalidRequest, msg: fmt.Sprintf(format, args...)}
}

// createMessage serves POST /v1/messages.
func (s *Server) createMessage(w http.ResponseWriter, r *http.Request) {
	p, rep, err := s.answer(r)
	if err != nil {
		writeAPIError(w, r, err)
		return
	}
	defer s.endThread(p) // once the reply, or its stream, is over
	s.drawPriority(w.Header(), r, p, &rep)
	if p.Stream {
		s.streamMessage(w, r, p, rep)
		return
	}
	writeJSON(w, http.StatusOK, rep.message(p))
}

// answer applies the rules to a create request and builds its reply: the
// next scripted turn (script.go) or the deterministic one, with its
// container (messages_container.go).
func (s *Server) answer(r *http.Request) (*msgParams, reply, *apiError) {
	p, err := s.parseMessages(r, "create")
	if err != nil {
		return nil, reply{}, err
	}
	if err := s.beginThread(p); err != nil {
		return nil, reply{}, err
	}
	if p.Compaction != nil {
		return p, s.compactionReply(p), nil
	}
	cont, err := s.useContainer(p)
	if err != nil {
		s.endThread(p)
		return nil, reply{}, err
	}
	script, n := s.takeTurn(r)
	rep, err := s.buildReply(p, script, n)
	rep.container = cont
	if err != nil {
		s.endThread(p)
		return nil, reply{}, err
	}
	s.storeThread(p, rep)
	return p, rep, nil
}

// countTokens serves POST /v1/messages/count_tokens.
func (s *Server) countTokens(w http.ResponseWriter, r *http.Request) {
	p, err := s.parseMessages(r, "count_tokens")
	if err != nil {
		writeAPIError(w, r, err)
		return
	}
	type original struct {
		OriginalInputTokens int `json:"original_input_tokens"`
	}
	var out struct {
		InputTokens       int       `json:"input_tokens"`
		ContextManagement *original `json:"context_management,omitempty"`
	}
	out.InputTokens = inputTokens(p.members)
	if present(p.ContextManagement) {
		out.ContextManagement = &original{out.InputTokens}
	}
	writeJSON(w, http.StatusOK, out)
}

// parseMessages reads a body of the given top-level shape ("create" or
// "count_tokens") and applies every rule to it.
func (s *Server) parseMessages(r *http.Request, top string) (*msgParams, *apiError) {
	body, _ := io.ReadAll(r.Body) // buffered by the rule chain
	switch {
	case len(strings.TrimSpace(string(body))) == 0:
		return nil, invalid("request body is empty; a JSON body is required")
	case !json.Valid(body):
		return nil, invalid("request body is not valid JSON")
	}
	if jsonKind(body) == '{' {
		if err := versionRefusal(requestVersion(r), body, ""); err != nil {
			return nil, err
		}
	}
	v := validator{sc: messagesSchema, betas: betaNames(r.Header)}
	if err := v.check("", body, &typ{kind: kShape, name: top}); err != nil {
		return nil, invalid("%s", err.Error())
	}
	if err := systemMessageRules(body, "", v.betas); err != nil {
		return nil, err
	}
	p := &msgParams{count: top == "count_tokens"}
	if err := json.Unmarshal(body, p); err != nil {
		return nil, invalid("request body: %v", err)
	}
	_ = json.Unmarshal(body, &p.members) // an object, as the schema checked
	if err := s.resolveThread(p); err != nil {
		return nil, err
	}
	if len(p.Messages) == 0 { // the form allows [] for a thread continuation only
		return nil, invalid("messages: List should have at least 1 item after validation, not 0")
	}
	if err := checkUserProfile(r.Header, p.UserProfileID); err != nil {
		return nil, err
	}
	if p.BillingPolicy != nil && p.BillingPolicy.BillTo == "user_profile" && r.Header.Get(wire.HeaderUserProfileID) == "" {
		return nil, invalid("billing_policy.bill_to: user_profile requires the %s header (user_profile_required)", strings.ToLower(wire.HeaderUserProfileID))
	}
	if err := p.checkConversation(); err != nil {
		return nil, err
	}
	if err := p.checkCompaction(); err != nil {
		return nil, err
	}
	if err := s.checkModel(p); err != nil {
		return nil, err
	}
	return p, nil
}

// checkUserProfile refuses a body user_profile_id that names another
// profile than the vendor-user-profile-id header.
func checkUserProfile(h http.Header, body *string) *apiError {
	header := h.Get(wire.HeaderUserProfileID)
	if body == nil || header == "" || *body == header {
		return nil
	}
	return invalid("user_profile_id: %q does not match the %s header (%q)", *body, strings.ToLower(wire.HeaderUserProfileID), header)
}

// checkModel resolves the model (or alias) and applies its limits.
func (s *Server) checkModel(p *msgParams) *apiError {
	i := slices.IndexFunc(s.models, func(m Model) bool { return m.ID == p.Model || slices.Contains(m.Aliases, p.Model) })
	if i < 0 {
		return &apiError{status: http.StatusNotFound, errType: wire.ErrNotFound, msg: "model: " + p.Model}
	}
	m := s.models[i]
	p.model = m
	if !p.count && m.MaxTokens > 0 && p.MaxTokens > m.MaxTokens {
		return invalid("max_tokens: %d > %d, which is the maximum allowed number of output tokens for %s",
			p.MaxTokens, m.MaxTokens, m.ID)
	}
	if n := inputTokens(p.members); m.MaxInputTokens > 0 && n > m.MaxInputTokens {
		return invalid("prompt is too long: %d tokens > %d maximum", n, m.MaxInputTokens)
	}
	caps := m.Capabilities
	if caps == nil { // capabilities unknown: nothing more to check
		return nil
	}
	if err := p.checkMessageEffort(caps); err != nil {
		return err
	}
	if p.OutputConfig != nil && p.OutputConfig.Effort != nil {
		e := caps.Effort
		levels := map[string]bool{"low": e.Low.Supported, "medium": e.Medium.Supported, "high": e.High.Supported,
			"max": e.Max.Supported, "xhigh": e.XHigh != nil && e.XHigh.Supported}
		if !e.Supported {
			return invalid("This model does not support the effort parameter.")
		}
		if level := *p.OutputConfig.Effort; !levels[level] {
			var ok []string
			for l, yes := range levels {
				if yes {
					ok = append(ok, l)
				}
			}
			slices.Sort(ok)
			return invalid("This model does not support effort level '%s'. Supported levels: %s.", level, strings.Join(ok, ", "))
		}
	}
	if p.thinkingOn() {
		th := caps.Thinking
		supported := map[string]bool{"enabled": th.Types.Enabled.Supported, "adaptive": th.Types.Adaptive.Supported}
		if !th.Supported || !supported[p.Thinking.Type] {
			return invalid("thinking.type: This model does not support thinking type '%s'.", p.Thinking.Type)
		}
	}
	return nil
}
