package langchaingo

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime"
	"slices"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
	"github.com/tmc/langchaingo/llms"
)

// Metadata keys of llms.CallOptions the LLM understands; any other key is
// an error, since the service has no place for arbitrary metadata.
const (
	// MetadataUserID (a string) becomes the request's metadata.user_id.
	MetadataUserID        = "user_id"
	metadataThinking      = "thinking_config" // llms.WithThinking and friends
	metadataPromptCaching = "prompt_caching"  // llms.WithPromptCaching
)

// interleavedThinkingBeta is the beta llms.WithInterleaveThinking turns on.
const interleavedThinkingBeta = "interleaved-thinking-2025-05-14"

// params builds the request of a call, and the request options it needs.
// Everything is checked here, before anything is sent.
func (l *LLM) params(messages []llms.MessageContent, opts *llms.CallOptions) (mms.MessageCreateParams, []option.RequestOption, error) {
	var p mms.MessageCreateParams
	var extra []option.RequestOption
	if err := unsupported(opts); err != nil {
		return p, nil, err
	}
	p.Model = cmp.Or(opts.Model, l.model)
	if p.Model == "" {
		return p, nil, errors.New("no model: pass WithModel to New or llms.WithModel to the call")
	}
	switch {
	case opts.MaxTokens < 0:
		return p, nil, fmt.Errorf("CallOptions.MaxTokens %d: must not be negative", opts.MaxTokens)
	case opts.MaxTokens > 0:
		p.MaxTokens = opts.MaxTokens
	default:
		p.MaxTokens = l.maxTokens
	}
	// langchaingo cannot tell 0 from unset for these: 0 sends nothing.
	if opts.Temperature != 0 {
		p.Temperature = mms.Ptr(opts.Temperature)
	}
	if opts.TopK != 0 {
		p.TopK = mms.Ptr(opts.TopK)
	}
	if opts.TopP != 0 {
		p.TopP = mms.Ptr(opts.TopP)
	}
	p.StopSequences = opts.StopWords

	var err error
	if p.Tools, err = customTools(opts); err != nil {
		return p, nil, err
	}
	if p.ToolChoice, err = toolChoice(opts); err != nil {
		return p, nil, err
	}
	for _, key := range slices.Sorted(maps.Keys(opts.Metadata)) {
		v := opts.Metadata[key]
		switch key {
		case metadataThinking:
			cfg, ok := v.(*llms.ThinkingConfig)
			if !ok {
				return p, nil, fmt.Errorf("CallOptions.Metadata[%q]: a %T, not a *llms.ThinkingConfig", key, v)
			}
			if cfg == nil {
				continue
			}
			p.Thinking = thinkingConfig(cfg, p.MaxTokens)
			if cfg.InterleaveThinking {
				extra = append(extra, option.WithBeta(interleavedThinkingBeta))
			}
		case metadataPromptCaching:
			on, ok := v.(bool)
			if !ok {
				return p, nil, fmt.Errorf("CallOptions.Metadata[%q]: a %T, not a bool", key, v)
			}
			if on {
				p.CacheControl = &mms.CacheControl{}
			}
		case MetadataUserID:
			id, ok := v.(string)
			if !ok {
				return p, nil, fmt.Errorf("CallOptions.Metadata[%q]: a %T, not a string", key, v)
			}
			p.Metadata = &mms.MessageMetadata{UserID: id}
		default:
			return p, nil, fmt.Errorf("CallOptions.Metadata[%q]: unknown key: the service takes %q, %q and %q",
				key, metadataThinking, metadataPromptCaching, MetadataUserID)
		}
	}

	system, turns, err := l.conversation(messages)
	if err != nil {
		return p, nil, err
	}
	if len(system) > 0 {
		p.System = mms.SystemBlocks(system...)
	}
	p.Messages = turns
	return p, extra, nil
}

// unsupported refuses the call options the service has no equivalent
// for, rather than drop them.
func unsupported(o *llms.CallOptions) error {
	for _, c := range []struct {
		name string
		set  bool
	}{
		{"CandidateCount", o.CandidateCount > 1},
		{"N", o.N > 1},
		{"Seed", o.Seed != 0},
		{"MinLength", o.MinLength != 0},
		{"MaxLength", o.MaxLength != 0},
		{"RepetitionPenalty", o.RepetitionPenalty != 0},
		{"FrequencyPenalty", o.FrequencyPenalty != 0},
		{"PresencePenalty", o.PresencePenalty != 0},
		{"JSONMode", o.JSONMode},
		{"ResponseMIMEType", o.ResponseMIMEType != "" && o.ResponseMIMEType != "text/plain"},
	} {
		if c.set {
			return fmt.Errorf("CallOptions.%s: the service has no equivalent; leave it unset", c.name)
		}
	}
	return nil
}

// thinkingConfig maps langchaingo's thinking configuration: an explicit budget
// is sent as it is; a mode's budget is its share of max_tokens
// (llms.CalculateThinkingBudget), at least mms.MinThinkingBudget; auto lets
// the model decide (adaptive); none turns thinking off.
func thinkingConfig(cfg *llms.ThinkingConfig, maxTokens int) mms.ThinkingConfig {
	if cfg.BudgetTokens > 0 {
		return mms.ThinkingConfigEnabled{BudgetTokens: cfg.BudgetTokens}
	}
	switch cfg.Mode {
	case llms.ThinkingModeNone:
		return mms.ThinkingConfigDisabled{}
	case llms.ThinkingModeLow, llms.ThinkingModeMedium, llms.ThinkingModeHigh:
		return mms.ThinkingConfigEnabled{BudgetTokens: max(llms.CalculateThinkingBudget(cfg.Mode, maxTokens), mms.MinThinkingBudget)}
	default: // auto, "" and modes langchaingo adds later
		return mms.ThinkingConfigAdaptive{}
	}
}

// customTools maps llms.Tool and the deprecated llms.FunctionDefinition (which
// langchaingo's OpenAIFunctionsAgent still sends) to custom tools, the
// JSON Schema passed through as an object.
func customTools(o *llms.CallOptions) (mms.Tools, error) {
	var out mms.Tools
	add := func(field string, f *llms.FunctionDefinition) error {
		if f == nil {
			return fmt.Errorf("%s: Function is nil", field)
		}
		schema, err := inputSchema(f.Parameters)
		if err != nil {
			return fmt.Errorf("%s (%s): Parameters: %w", field, f.Name, err)
		}
		t := mms.CustomTool{Name: f.Name, Description: f.Description, InputSchema: schema}
		if f.Strict {
			t.Strict = mms.Ptr(true)
		}
		out = append(out, t)
		return nil
	}
	for i, t := range o.Tools {
		field := fmt.Sprintf("CallOptions.Tools[%d]", i)
		if t.Type != "" && t.Type != "function" {
			return nil, fmt.Errorf("%s: type %q: only function tools exist", field, t.Type)
		}
		if err := add(field, t.Function); err != nil {
			return nil, err
		}
	}
	for i := range o.Functions {
		if err := add(fmt.Sprintf("CallOptions.Functions[%d]", i), &o.Functions[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// inputSchema returns a tool's parameters as a JSON object: a value is
// encoded, JSON text (string, []byte, json.RawMessage) is taken as it is,
// and none is the empty object schema.
func inputSchema(v any) (mms.InputSchema, error) {
	var raw []byte
	switch s := v.(type) {
	case nil:
		return mms.InputSchema(`{"type":"object","properties":{}}`), nil
	case string:
		raw = []byte(s)
	case []byte:
		raw = s
	case json.RawMessage:
		raw = s
	default:
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	if !isObject(raw) {
		return nil, errors.New("not a JSON object")
	}
	return mms.InputSchema(raw), nil
}

// toolChoice maps CallOptions.ToolChoice ("none", "auto", "any" or
// "required", a function name, an llms.ToolChoice, or an mms.ToolChoice),
// else the deprecated FunctionCallBehavior.
func toolChoice(o *llms.CallOptions) (mms.ToolChoice, error) {
	named := func(name string) (mms.ToolChoice, error) {
		if name == "" {
			return nil, errors.New("CallOptions.ToolChoice: the function's name is empty")
		}
		return mms.ToolChoiceTool{Name: name}, nil
	}
	switch c := o.ToolChoice.(type) {
	case nil:
	case mms.ToolChoice:
		return c, nil
	case llms.ToolChoice:
		if c.Function == nil {
			return byName(c.Type)
		}
		return named(c.Function.Name)
	case *llms.ToolChoice:
		if c == nil {
			break
		}
		if c.Function == nil {
			return byName(c.Type)
		}
		return named(c.Function.Name)
	case string:
		return byName(c)
	default:
		return nil, fmt.Errorf("CallOptions.ToolChoice: a %T; use a string, an llms.ToolChoice or an mms.ToolChoice", c)
	}
	switch o.FunctionCallBehavior {
	case "":
		return nil, nil
	case llms.FunctionCallBehaviorNone:
		return mms.ToolChoiceNone{}, nil
	case llms.FunctionCallBehaviorAuto:
		return mms.ToolChoiceAuto{}, nil
	default:
		return nil, fmt.Errorf("CallOptions.FunctionCallBehavior %q: use none or auto", o.FunctionCallBehavior)
	}
}

func byName(s string) (mms.ToolChoice, error) {
	switch s {
	case "none":
		return mms.ToolChoiceNone{}, nil
	case "auto":
		return mms.ToolChoiceAuto{}, nil
	case "any", "required":
		return mms.ToolChoiceAny{}, nil
	case "":
		return nil, errors.New("CallOptions.ToolChoice: empty; use none, auto, any, required or a function")
	default:
		return mms.ToolChoiceTool{Name: s}, nil
	}
}

// conversation maps the messages: system messages become the system
// prompt (the service has no system turns), human and tool messages user
// turns (consecutive ones merged, so that the tool results of one reply
// travel in one turn), AI messages assistant turns.
func (l *LLM) conversation(messages []llms.MessageContent) ([]mms.TextBlock, []mms.MessageParam, error) {
	var system []mms.TextBlock
	var turns []mms.MessageParam
	for i, m := range messages {
		if len(m.Parts) == 0 {
			return nil, nil, fmt.Errorf("messages[%d]: no parts", i)
		}
		switch m.Role {
		case llms.ChatMessageTypeSystem:
			for j, part := range m.Parts {
				b, err := systemBlock(part)
				if err != nil {
					return nil, nil, fmt.Errorf("messages[%d].Parts[%d]: %w", i, j, err)
				}
				system = append(system, b)
			}
		case llms.ChatMessageTypeHuman, llms.ChatMessageTypeTool, "user":
			var blocks mms.ContentBlocks
			for j, part := range m.Parts {
				b, err := userBlock(part, m.Role == llms.ChatMessageTypeTool)
				if err != nil {
					return nil, nil, fmt.Errorf("messages[%d].Parts[%d]: %w", i, j, err)
				}
				blocks = append(blocks, b)
			}
			if n := len(turns); n > 0 && turns[n-1].Role == mms.RoleUser {
				turns[n-1].Content = append(turns[n-1].Content, blocks...)
			} else {
				turns = append(turns, mms.UserMessage(blocks...))
			}
		case llms.ChatMessageTypeAI, "assistant":
			blocks, err := l.assistantBlocks(i, m.Parts)
			if err != nil {
				return nil, nil, err
			}
			turns = append(turns, mms.AssistantMessage(blocks...))
		default:
			return nil, nil, fmt.Errorf("messages[%d]: role %q: the service takes system, human (user), ai (assistant) and tool messages",
				i, m.Role)
		}
	}
	return system, turns, nil
}

func systemBlock(part llms.ContentPart) (mms.TextBlock, error) {
	switch p := part.(type) {
	case llms.TextContent:
		return mms.TextBlock{Text: p.Text}, nil
	case llms.CachedContent:
		t, ok := p.ContentPart.(llms.TextContent)
		if !ok {
			return mms.TextBlock{}, fmt.Errorf("a system message holds text, not %T", p.ContentPart)
		}
		cc, err := cacheControl(p.CacheControl)
		return mms.TextBlock{Text: t.Text, CacheControl: cc}, err
	case BlockPart:
		if t, ok := p.Block.(mms.TextBlock); ok {
			return t, nil
		}
		return mms.TextBlock{}, fmt.Errorf("a system message holds text, not %T", p.Block)
	default:
		return mms.TextBlock{}, fmt.Errorf("a system message holds text, not %T", part)
	}
}

// userBlock maps a part of a human or tool message.
func userBlock(part llms.ContentPart, tool bool) (mms.ContentBlock, error) {
	if tool {
		switch part.(type) {
		case llms.ToolCallResponse, BlockPart, llms.CachedContent:
		default:
			return nil, fmt.Errorf("a tool message holds ToolCallResponse parts, not %T", part)
		}
	}
	switch p := part.(type) {
	case llms.TextContent:
		return mms.TextBlock{Text: p.Text}, nil
	case llms.BinaryContent:
		return binaryBlock(p.MIMEType, p.Data)
	case llms.ImageURLContent:
		return urlBlock(p.URL)
	case llms.ToolCallResponse:
		if p.ToolCallID == "" {
			return nil, errors.New("ToolCallResponse.ToolCallID is empty: a result answers a tool call by its id")
		}
		return mms.ToolResult(p.ToolCallID, p.Content, false), nil
	case llms.CachedContent:
		b, err := userBlock(p.ContentPart, tool)
		if err != nil {
			return nil, err
		}
		return withCacheControl(b, p.CacheControl)
	case BlockPart:
		return p.block()
	case llms.ToolCall:
		return nil, errors.New("a ToolCall belongs in an ai message")
	default:
		return nil, fmt.Errorf("unsupported part type %T", part)
	}
}

// binaryBlock maps data by its MIME type: an image, a PDF or plain text.
func binaryBlock(mimeType string, data []byte) (mms.ContentBlock, error) {
	mt, _, err := mime.ParseMediaType(mimeType)
	if mimeType == "" {
		mt, err = "", nil // sniffed by ImageFromBytes
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("BinaryContent.MIMEType %q: %w", mimeType, err)
	case mt == "" || strings.HasPrefix(mt, "image/"):
		return mms.ImageFromBytes(mms.ImageMediaType(mt), data), nil
	case mt == "application/pdf":
		return mms.PDFFromBytes(data), nil
	case mt == "text/plain":
		return mms.TextDocument(string(data)), nil
	default:
		return nil, fmt.Errorf("BinaryContent.MIMEType %q: the service reads images, application/pdf and text/plain", mimeType)
	}
}

// urlBlock maps an image URL: a base64 data: URL is sent as data, an http
// or https URL is fetched by the service. (ImageURLContent.Detail has no
// equivalent and is not sent.)
func urlBlock(u string) (mms.ContentBlock, error) {
	if rest, ok := strings.CutPrefix(u, "data:"); ok {
		meta, data, ok := strings.Cut(rest, ",")
		mt, isBase64 := strings.CutSuffix(meta, ";base64")
		if !ok || !isBase64 {
			return nil, errors.New("ImageURLContent.URL: a data: URL must be base64 (data:<type>;base64,<data>)")
		}
		if _, err := base64.StdEncoding.DecodeString(data); err != nil {
			return nil, fmt.Errorf("ImageURLContent.URL: data: URL: %w", err)
		}
		switch {
		case strings.HasPrefix(mt, "image/"):
			return mms.ImageFromBase64(mms.ImageMediaType(mt), data), nil
		case mt == "application/pdf":
			return mms.PDFFromBase64(data), nil
		default:
			return nil, fmt.Errorf("ImageURLContent.URL: data: URL of type %q: the service reads images and application/pdf", mt)
		}
	}
	if strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") {
		return mms.ImageFromURL(u), nil
	}
	return nil, errors.New("ImageURLContent.URL: use an http(s) URL or a base64 data: URL")
}

// assistantBlocks maps the parts of an AI message i, restoring a
// remembered reply when the parts are its tool calls (see WithReplyMemory).
func (l *LLM) assistantBlocks(i int, parts []llms.ContentPart) (mms.ContentBlocks, error) {
	var calls []llms.ToolCall
	plain := true // only text and tool calls: what an agent rebuilds
	for _, part := range parts {
		switch p := part.(type) {
		case llms.ToolCall:
			calls = append(calls, p)
		case llms.TextContent:
		default:
			plain = false
		}
	}
	if plain {
		if content, ok := l.memory.recall(calls); ok {
			return content, nil
		}
	}
	blocks := make(mms.ContentBlocks, 0, len(parts))
	for j, part := range parts {
		b, err := assistantBlock(part)
		if err != nil {
			return nil, fmt.Errorf("messages[%d].Parts[%d]: %w", i, j, err)
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

func assistantBlock(part llms.ContentPart) (mms.ContentBlock, error) {
	switch p := part.(type) {
	case llms.TextContent:
		return mms.TextBlock{Text: p.Text}, nil
	case llms.ToolCall:
		if p.FunctionCall == nil {
			return nil, fmt.Errorf("ToolCall %q: FunctionCall is nil", p.ID)
		}
		args := cmp.Or(p.FunctionCall.Arguments, "{}")
		if !isObject([]byte(args)) {
			return nil, fmt.Errorf("ToolCall %q (%s): Arguments are not a JSON object", p.ID, p.FunctionCall.Name)
		}
		return mms.ToolUseBlock{ID: p.ID, Name: p.FunctionCall.Name, Input: json.RawMessage(args)}, nil
	case llms.CachedContent:
		b, err := assistantBlock(p.ContentPart)
		if err != nil {
			return nil, err
		}
		return withCacheControl(b, p.CacheControl)
	case BlockPart:
		return p.block()
	default:
		return nil, fmt.Errorf("an ai message holds text, ToolCall and BlockPart parts, not %T", part)
	}
}

// cacheControl maps llms.CacheControl: type ephemeral (or empty), lifetime
// 5 minutes (or zero) or one hour.
func cacheControl(c *llms.CacheControl) (*mms.CacheControl, error) {
	if c == nil {
		return nil, nil
	}
	if c.Type != "" && c.Type != "ephemeral" {
		return nil, fmt.Errorf("CacheControl.Type %q: the service caches ephemeral entries only", c.Type)
	}
	switch c.Duration {
	case 0, 5 * time.Minute:
		return &mms.CacheControl{}, nil
	case time.Hour:
		return &mms.CacheControl{TTL: mms.CacheTTL1h}, nil
	default:
		return nil, fmt.Errorf("CacheControl.Duration %v: the service keeps entries 5m or 1h", c.Duration)
	}
}

func withCacheControl(b mms.ContentBlock, c *llms.CacheControl) (mms.ContentBlock, error) {
	cc, err := cacheControl(c)
	if err != nil {
		return nil, err
	}
	switch b := b.(type) {
	case mms.TextBlock:
		b.CacheControl = cc
		return b, nil
	case mms.ImageBlock:
		b.CacheControl = cc
		return b, nil
	case mms.DocumentBlock:
		b.CacheControl = cc
		return b, nil
	case mms.ToolResultBlock:
		b.CacheControl = cc
		return b, nil
	case mms.ToolUseBlock:
		b.CacheControl = cc
		return b, nil
	default:
		return nil, fmt.Errorf("CachedContent: a %T block takes no cache control", b)
	}
}

// isObject reports whether raw is one JSON object.
func isObject(raw []byte) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal(raw, &v) == nil && v != nil
}

// block is the block p carries, refused when there is none.
func (p BlockPart) block() (mms.ContentBlock, error) {
	if p.Block == nil {
		return nil, errors.New("BlockPart.Block is nil")
	}
	return p.Block, nil
}
