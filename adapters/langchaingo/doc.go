// Package langchaingo adapts the mms-go client to langchaingo
// (github.com/tmc/langchaingo): an *LLM is an llms.Model whose requests go
// through an *mms.Client's Messages API, so langchaingo's agents, chains
// and helpers run on the service.
//
//	client, err := mms.NewClient() // $VENDOR_API_KEY, $VENDOR_BASE_URL
//	if err != nil {
//		return err
//	}
//	llm, err := langchaingo.New(client, langchaingo.WithModel("mms-large-1"))
//	if err != nil {
//		return err
//	}
//	answer, err := llms.GenerateFromSinglePrompt(ctx, llm, "Hello!")
//
// # What maps where
//
// Requests. System messages become the system prompt (text; cached with
// llms.CachedContent). Human and tool messages become user turns,
// consecutive ones merged: llms.TextContent is text; llms.BinaryContent
// an image (image/*), a PDF (application/pdf) or a text document
// (text/plain); llms.ImageURLContent an image fetched by the service
// (http, https) or sent as data (a base64 data: URL; its Detail has no
// equivalent); llms.ToolCallResponse a tool_result (its Name has no
// equivalent: the id names the call). AI messages become assistant turns:
// llms.ToolCall is a tool_use whose Arguments must be a JSON object, sent
// as an object. A BlockPart carries any mms block unchanged. The roles
// "user" and "assistant" are accepted as human and ai.
//
// Call options: Model, MaxTokens (DefaultMaxTokens when unset), Temperature,
// TopK, TopP (0 cannot be told from unset and is not sent), StopWords, Tools
// and the deprecated Functions (custom tools, the JSON Schema passed
// through as an object), ToolChoice ("none", "auto", "any" or "required", a
// tool name, an llms.ToolChoice or an mms.ToolChoice) and the deprecated
// FunctionCallBehavior. Metadata: the thinking configuration of
// llms.WithThinking and friends (an explicit budget as it is; a mode's
// share of MaxTokens, at least mms.MinThinkingBudget; auto as adaptive
// thinking; none as thinking disabled; InterleaveThinking as the
// interleaved-thinking beta; ReturnThinking and StreamThinking change
// nothing: thinking is always returned, and streamed to a reasoning func),
// llms.WithPromptCaching (a cache breakpoint on the last cacheable block)
// and MetadataUserID. An option the service has no equivalent for
// (CandidateCount or N above 1, Seed, MinLength, MaxLength, the penalties,
// JSONMode, a ResponseMIMEType other than text/plain) and any other
// Metadata key is an error, before anything is sent.
//
// Replies come back as one llms.ContentChoice holding all of the reply:
// Content is the text, ReasoningContent the thinking, ToolCalls the tool
// calls (inputs as JSON object text; FuncCall the first), StopReason the
// service's stop reason ("end_turn", "tool_use", …), and GenerationInfo the
// usage under the keys of langchaingo's anthropic provider, the whole
// reply (InfoBlocks), its citations, request id, message id and model
// (see the Info constants). Usage is reported once per call, streamed or
// not. AssistantMessage turns a choice into the next request's assistant
// message with the thinking blocks and their signatures, which the service
// checks.
//
// Streaming: llms.WithStreamingFunc receives text deltas;
// llms.WithStreamingReasoningFunc receives thinking deltas as its
// reasoning chunk and text deltas as its chunk. An error from either stops
// the stream and closes the connection, as does the end of the context.
//
// Agents: langchaingo's agents rebuild the assistant turn of a tool call
// from its tool calls alone. The LLM remembers its recent tool-calling
// replies and sends such a turn back as the service sent it, thinking
// included (WithReplyMemory).
//
// Not mapped, for want of a place in langchaingo: per-block citations on
// the request side except through BlockPart; tool results marked as errors
// (llms.ToolCallResponse has no error flag: use a BlockPart holding an
// mms.ToolResultBlock); tool results with images (likewise).
package langchaingo
