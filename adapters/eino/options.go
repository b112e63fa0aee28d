package eino

import (
	"slices"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// callOptions are this package's own per-call options (Eino's
// "implementation-specific" options).
type callOptions struct {
	thinking mms.ThinkingConfig
	reqOpts  []option.RequestOption
}

// WithThinking sets the request's thinking configuration for one call,
// replacing the template's (mms.ThinkingConfigEnabled{BudgetTokens: 2048},
// mms.ThinkingConfigAdaptive{}, …).
func WithThinking(t mms.ThinkingConfig) model.Option {
	return model.WrapImplSpecificOptFn(func(o *callOptions) { o.thinking = t })
}

// WithRequestOptions adds SDK request options (headers, timeouts, retries,
// …) to one call, after the model's own.
func WithRequestOptions(opts ...option.RequestOption) model.Option {
	return model.WrapImplSpecificOptFn(func(o *callOptions) { o.reqOpts = append(o.reqOpts, opts...) })
}

// call is one Generate or Stream call, prepared.
type call struct {
	params  mms.MessageCreateParams
	reqOpts []option.RequestOption
	tools   []*schema.ToolInfo
	choice  *schema.ToolChoice
	config  *model.Config
}

// prepare builds the request of a call. The returned call is never nil, so
// the callbacks get their input even when the call is refused.
func (m *ChatModel) prepare(input []*schema.Message, opts []model.Option) (*call, error) {
	m.mu.RLock()
	tools, defs := m.tools, m.defs
	m.mu.RUnlock()

	common := model.GetCommonOptions(nil, opts...)
	spec := model.GetImplSpecificOptions(&callOptions{}, opts...)
	p := m.template
	c := &call{tools: tools, choice: common.ToolChoice}
	if common.Model != nil {
		p.Model = *common.Model
	}
	if common.MaxTokens != nil {
		p.MaxTokens = *common.MaxTokens
	}
	if common.Temperature != nil {
		p.Temperature = mms.Ptr(float64(*common.Temperature))
	}
	if common.TopP != nil {
		p.TopP = mms.Ptr(float64(*common.TopP))
	}
	if common.Stop != nil {
		p.StopSequences = common.Stop
	}
	if spec.thinking != nil {
		p.Thinking = spec.thinking
	}
	c.config = &model.Config{Model: p.Model, MaxTokens: p.MaxTokens, Stop: p.StopSequences}
	if p.Temperature != nil {
		c.config.Temperature = float32(*p.Temperature)
	}
	if p.TopP != nil {
		c.config.TopP = float32(*p.TopP)
	}
	c.params = p
	c.reqOpts = append(slices.Clip(m.reqOpts), spec.reqOpts...)

	if common.Tools != nil {
		var err error
		if defs, err = toolDefs(common.Tools); err != nil {
			return c, err
		}
		c.tools = common.Tools
	}
	// A new slice: the template's backing array is shared by every call.
	c.params.Tools = append(slices.Clip(p.Tools), defs...)
	if err := setToolChoice(&c.params, common.ToolChoice, common.AllowedToolNames); err != nil {
		return c, err
	}

	system, msgs, err := toParams(input)
	if err != nil {
		return c, err
	}
	if len(system) > 0 {
		blocks := slices.Clip(p.System.Blocks)
		if blocks == nil && p.System.Text != "" {
			blocks = []mms.TextBlock{{Text: p.System.Text}}
		}
		c.params.System = mms.SystemBlocks(append(blocks, system...)...)
	}
	c.params.Messages = msgs
	return c, nil
}

// requestOptions are the call's request options, with md capturing the
// response metadata last so that it sees the request id.
func (c *call) requestOptions(md *option.ResponseMetadata) []option.RequestOption {
	return append(slices.Clip(c.reqOpts), option.WithResponseMetadata(md))
}

// callbackInput is what OnStart reports.
func (c *call) callbackInput(input []*schema.Message) *model.CallbackInput {
	return &model.CallbackInput{Messages: input, Tools: c.tools, ToolChoice: c.choice, Config: c.config}
}

// callbackOutput is what OnEnd reports for a whole reply.
func (c *call) callbackOutput(msg *schema.Message) *model.CallbackOutput {
	out := &model.CallbackOutput{Message: msg, Config: c.config}
	if msg.ResponseMeta != nil && msg.ResponseMeta.Usage != nil {
		u := msg.ResponseMeta.Usage
		out.TokenUsage = &model.TokenUsage{
			PromptTokens:            u.PromptTokens,
			PromptTokenDetails:      model.PromptTokenDetails{CachedTokens: u.PromptTokenDetails.CachedTokens},
			CompletionTokens:        u.CompletionTokens,
			TotalTokens:             u.TotalTokens,
			CompletionTokensDetails: model.CompletionTokensDetails{ReasoningTokens: u.CompletionTokensDetails.ReasoningTokens},
		}
	}
	return out
}
