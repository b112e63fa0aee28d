package otel

import "go.opentelemetry.io/otel/attribute"

// The attribute names. gen_ai.*, server.*, http.*, url.* and error.type are
// the conventions'; mms.* are this SDK's for what they do not name.
const (
	keyOperation     = "gen_ai.operation.name"
	keyRequestModel  = "gen_ai.request.model"
	keyMaxTokens     = "gen_ai.request.max_tokens"
	keyTemperature   = "gen_ai.request.temperature"
	keyTopP          = "gen_ai.request.top_p"
	keyTopK          = "gen_ai.request.top_k"
	keyStopSequences = "gen_ai.request.stop_sequences"
	keyResponseID    = "gen_ai.response.id"
	keyResponseModel = "gen_ai.response.model"
	keyFinishReasons = "gen_ai.response.finish_reasons"
	keyInputTokens   = "gen_ai.usage.input_tokens"
	keyOutputTokens  = "gen_ai.usage.output_tokens"
	keyTokenType     = "gen_ai.token.type"
	keyTTFC          = "gen_ai.response.time_to_first_chunk"

	keyToolName      = "gen_ai.tool.name"
	keyToolCallID    = "gen_ai.tool.call.id"
	keyToolType      = "gen_ai.tool.type"
	keyToolArguments = "gen_ai.tool.call.arguments"
	keyToolResult    = "gen_ai.tool.call.result"

	keySystemInstructions = "gen_ai.system_instructions"
	keyInputMessages      = "gen_ai.input.messages"
	keyOutputMessages     = "gen_ai.output.messages"

	keyServerAddress = "server.address"
	keyServerPort    = "server.port"
	keyErrorType     = "error.type"
	keyHTTPMethod    = "http.request.method"
	keyHTTPStatus    = "http.response.status_code"
	keyResendCount   = "http.request.resend_count"
	keyURLFull       = "url.full"

	keyMethod              = "mms.method"         // the SDK method: "Messages.Create"
	keyKind                = "mms.operation.kind" // an operation the GenAI conventions do not cover
	keyIteration           = "mms.tool_runner.iteration"
	keyRequestServiceTier  = "mms.request.service_tier"
	keyResponseServiceTier = "mms.response.service_tier"
	keyInferenceGeo        = "mms.response.inference_geo"
	keyThinkingTokens      = "mms.usage.thinking_tokens"
	keyCountedTokens       = "mms.count_tokens.input_tokens"
	keyEventCount          = "mms.stream.events"
	keyRequestID           = "mms.request_id"
	keyPlatformRequestID   = "mms.platform_request_id"
	keyRetry               = "mms.retry" // on a failed attempt: another follows
)

// names holds the attribute keys that differ between the conventions'
// versions.
type names struct {
	latest        bool
	provider      attribute.Key
	cacheRead     attribute.Key
	cacheCreation attribute.Key
}

func namesFor(s Semconv) names {
	if s == SemconvLatestExperimental {
		return names{
			latest:        true,
			provider:      "gen_ai.provider.name",
			cacheRead:     "gen_ai.usage.cache_read.input_tokens",
			cacheCreation: "gen_ai.usage.cache_creation.input_tokens",
		}
	}
	return names{
		provider:      "gen_ai.system",
		cacheRead:     "mms.usage.cache_read.input_tokens",
		cacheCreation: "mms.usage.cache_creation.input_tokens",
	}
}
