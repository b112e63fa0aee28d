// Package mmsgenkit is a Genkit plugin (github.com/firebase/genkit/go)
// whose models run on the service: each model call is one Messages
// request through an *mms.Client, streamed when Genkit passes a streaming
// callback.
//
//	client, err := mms.NewClient() // the key from $VENDOR_API_KEY
//	if err != nil {
//		log.Fatal(err)
//	}
//	g := genkit.Init(ctx, genkit.WithPlugins(&mmsgenkit.Plugin{Client: client}))
//	text, err := genkit.GenerateText(ctx, g, ai.WithModelName("mms/mms-large-1"), ai.WithPrompt("Hello"))
//
// Models are named "mms/<model>". Those in [Plugin.Models] are defined at
// Init; any other name resolves on first use (the plugin is a Genkit
// dynamic plugin), so no list of models needs to be kept here.
//
// # Requests
//
// System messages before the conversation become the system prompt (a
// later one is an error). User parts: text; media as images (image/* by
// ContentType or data: URL; an http(s) URL needs its ContentType) and
// documents (application/pdf as URL or data: URL, text/plain as data:
// URL). The request's Docs (Genkit's context) become document blocks at
// the start of the last user message: text parts as a text document, a PDF
// media part as a PDF; Metadata["title"] is the title; Config.Citations
// turns citations on for them. Tool messages
// become a user turn of tool_result blocks: a string Output is sent as
// text, any other Output as its JSON, and a multipart response's Content
// parts follow. Consecutive messages of one role are one turn.
//
// Model messages send their parts back: text, tool requests as tool_use
// blocks whose input is the ToolRequest.Input JSON object (nil is {}),
// reasoning parts as thinking blocks with the signature in
// Metadata["signature"] (a []byte, as Genkit's NewReasoningPart stores it,
// or the base64 string JSON makes of one), and custom parts holding a
// block (redacted thinking, server tool calls and results) verbatim. A part
// the plugin returned whose block has more than its Genkit form shows
// (citations, the exact digits of a tool input) keeps the block in
// Metadata[MetadataBlock]; it is sent as it was while the part still says
// what the block says. Reasoning without a signature (another model's) is
// not sent: the service accepts only thinking it signed.
//
// Tool definitions are sent as custom tools whose input_schema is the
// tool's InputSchema object as it is (none is an empty object schema),
// sorted by name (Genkit's Generate hands them over in a different order on
// each call, which would defeat prompt caching).
// ToolChoice auto, required and none map to auto, any and none.
// Configuration is a [Config] (or *Config, ai.GenerationCommonConfig, or a
// map[string]any of Config's JSON fields, as Genkit's developer UI sends
// it); the model's config schema is Config's.
//
// # Replies
//
// The reply's blocks become parts in order: text, reasoning (signature in
// Metadata["signature"]), tool requests (Input a map[string]any), and
// custom parts for the rest (Custom[CustomBlock]). FinishReason: end_turn,
// tool_use and stop_sequence are stop; max_tokens and
// model_context_window_exceeded are length; refusal is blocked; pause_turn
// and compaction are other; FinishMessage is the stop reason as the
// service gave it. Usage: InputTokens counts all input (cache reads and
// writes included, CachedContentTokens the reads), ThoughtsTokens the
// thinking tokens, Custom the cache counts. Custom holds the request id
// ([RequestID]), message id, stop reason, stop sequence and the full
// mms.Usage; Raw the *mms.Message.
//
// With a streaming callback the reply streams: text and thinking deltas
// as they arrive, a signature as a reasoning chunk with only the
// signature, a tool request or other block whole when it ends. Usage comes
// once, in the response. A callback error or the end of ctx stops the
// stream and releases its connection; a failure mid-stream is the call's
// error, never a short answer.
//
// # Not mapped
//
// Genkit has no place for a tool result's is_error (a failing tool fails
// Genkit's Generate), cache_control and file ids on parts (use a custom
// part built with [BlockPart]), audio and video (refused), and native
// constrained output (Genkit adds its format instructions to the prompt
// instead).
package mmsgenkit

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/core"
	"github.com/firebase/genkit/go/core/api"
	"github.com/firebase/genkit/go/genkit"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// Provider is the plugin's name and the prefix of its models' names.
const Provider = "mms"

// DefaultMaxTokens is max_tokens when neither the call's config nor
// [Plugin.MaxTokens] sets one (the service requires it).
const DefaultMaxTokens = 4096

// Plugin is the Genkit plugin. Pass it to genkit.WithPlugins; Client is
// required. A Plugin is initialized once.
type Plugin struct {
	// Client sends the requests.
	Client *mms.Client
	// Models are defined at Init (e.g. "mms-large-1"); other names resolve
	// on first use.
	Models []string
	// MaxTokens is max_tokens when a call's config sets none; 0 means
	// [DefaultMaxTokens].
	MaxTokens int
	// RequestOptions apply to every request, before a call's own.
	RequestOptions []option.RequestOption

	mu      sync.Mutex
	initted bool
}

var _ api.DynamicPlugin = (*Plugin)(nil)

// Name returns [Provider].
func (p *Plugin) Name() string { return Provider }

// Init defines the models in p.Models. It panics when p.Client is nil or p
// was initialized before, as Genkit's own plugins do (Init cannot return
// an error).
func (p *Plugin) Init(context.Context) []api.Action {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.Client == nil:
		panic("mmsgenkit: Plugin.Client is nil")
	case p.initted:
		panic("mmsgenkit: plugin already initialized")
	case p.MaxTokens < 0:
		panic(fmt.Sprintf("mmsgenkit: Plugin.MaxTokens must not be negative, got %d", p.MaxTokens))
	}
	p.initted = true
	actions := make([]api.Action, 0, len(p.Models))
	for _, name := range p.Models {
		actions = append(actions, p.newModel(name).(api.Action))
	}
	return actions
}

// ListActions describes the models in p.Models (for Genkit's developer
// tools); it makes no request.
func (p *Plugin) ListActions(context.Context) []api.ActionDesc {
	descs := make([]api.ActionDesc, 0, len(p.Models))
	for _, name := range p.Models {
		descs = append(descs, p.newModel(name).(api.Action).Desc())
	}
	return descs
}

// ResolveAction makes the model of any name Genkit asks for.
func (p *Plugin) ResolveAction(atype api.ActionType, name string) api.Action {
	if atype != api.ActionTypeModel || name == "" {
		return nil
	}
	return p.newModel(name).(api.Action)
}

// DefineModel defines and registers the model name with g, whether or not
// it is in p.Models. Model names are not checked here: the service refuses
// an unknown one.
func (p *Plugin) DefineModel(g *genkit.Genkit, name string) (ai.Model, error) {
	if name == "" {
		return nil, errors.New("mmsgenkit: DefineModel: name is required")
	}
	if p.Client == nil {
		return nil, errors.New("mmsgenkit: DefineModel: Plugin.Client is nil")
	}
	return genkit.DefineModel(g, api.NewName(Provider, name), p.modelOptions(name), p.modelFunc(name)), nil
}

// Model returns the model name of the plugin registered with g, resolving
// it when it is not defined yet (nil when the plugin is not registered).
func Model(g *genkit.Genkit, name string) ai.Model {
	return genkit.LookupModel(g, api.NewName(Provider, name))
}

// supports is what the plugin's models declare to Genkit: Context, so
// that Genkit leaves the request's Docs to the plugin (as document blocks)
// instead of pasting them into the prompt.
var supports = ai.ModelSupports{
	Multiturn:   true,
	Media:       true,
	Tools:       true,
	ToolChoice:  true,
	SystemRole:  true,
	Context:     true,
	Constrained: ai.ConstrainedSupportNone,
}

// newModel makes the Genkit model name, unregistered.
func (p *Plugin) newModel(name string) ai.Model {
	return ai.NewModel(api.NewName(Provider, name), p.modelOptions(name), p.modelFunc(name))
}

// modelOptions describes the model name to Genkit.
func (p *Plugin) modelOptions(name string) *ai.ModelOptions {
	s := supports // a copy per model: Genkit holds the pointer
	return &ai.ModelOptions{
		Label:        "MMS - " + name,
		Supports:     &s,
		Stage:        ai.ModelStageStable,
		ConfigSchema: configSchema,
	}
}

// modelFunc is the model name's generate function.
func (p *Plugin) modelFunc(name string) ai.ModelFunc {
	return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
		return p.generate(ctx, name, req, cb)
	}
}

// configSchema is the JSON Schema of Config, for Genkit's tools.
var configSchema = core.InferSchemaMap(Config{})
