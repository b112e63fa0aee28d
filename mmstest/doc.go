// Package mmstest is an in-process fake of the model-messaging service for
// tests, demos and users' own test suites: an HTTP server on 127.0.0.1
// that speaks the service's wire format. It never imports the SDK's root
// package (only its option package, for ClientOptions): it is an
// independent counterpart, and the SDK's own tests run against it.
//
// The fake is honest: every request passes through the same rules, in the same
// order, as on the real service (authentication, vendor-version, vendor-beta,
// body size, injected faults, rate limiting, routing), and every answer has the
// real shape, including the request-id header and the error body
// {"type":"error","error":{...},"request_id":"req_..."}. It is also
// deterministic: the same sequence of requests produces the same bodies and
// request ids, so tests can compare responses byte for byte.
//
// A test of code that uses the SDK gets a server and a client wired to it
// (URL, key and HTTP client: ClientOptions) in one line with
// mmstest/fakeclient.New(t); Script decides what the model does and
// FailNext injects a failure.
//
// # What it simulates
//
//   - Authentication and headers: x-api-key or a bearer token (WithAPIKeys,
//     WithAuthTokens), minted OAuth tokens, a work item's sessions_token
//     on its own session; the one vendor-version; known vendor-beta values
//     and the betas each endpoint family requires; the request-id and
//     vendor-organization-id headers on every answer (rules.go).
//   - Validation with the service's error bodies: request forms checked
//     strictly (an unknown member is a 400 naming its path), conversation
//     rules, and every rule the SDK validates, with the service's status
//     and error type (schema.go, messages_schema.go, messages_check.go and
//     each resource's file).
//   - Limits: body size per endpoint (413), metadata, name and list
//     limits, batch sizes; the shared ones come from internal/wire, which
//     the SDK's limits are held equal to by a test.
//   - Pagination in the service's three schemes: by id (first_id,
//     last_id, has_more), by cursor (next_page) and bidirectional
//     (next_page, prev_page; pagination.go). A page token names an item
//     and its place in the list's order, not an offset: creates and
//     deletes between two page fetches neither repeat nor skip an item,
//     and a token (or after_id, before_id) naming a deleted item resumes
//     where it stood.
//   - Streaming: Messages as server-sent events, and session event streams
//     with pings and previews; stream faults (InjectStreamFault).
//   - Message Batches processed on the server's clock, with chosen
//     outcomes (WithBatchOutcomes) and results as JSONL.
//   - Files (uploads spooled to disk when large) and Skills with versions.
//   - Managed agents: agents (every version kept), environments and their
//     self-hosted work queue, vaults and credentials, sessions with their
//     resources, threads and events (a turn engine per session), memory
//     stores with memories and versions, tunnels and certificates,
//     deployments whose cron schedules fire on the server's clock (runs
//     create sessions; a run failing for a gone link pauses its
//     deployment), and dreams moving pending → running → completed on
//     the server's clock (WithDreamTimes, FailDream).
//   - User profiles (beta and GA records, enforcement and programs seeded
//     by tests, delete, enrollment and action URLs, Google data
//     controls); the OAuth token endpoint.
//   - Rate limits: a request bucket with the vendor-ratelimit-requests-*
//     and retry-after headers (WithServerRateLimit); priority-tier
//     commitments (WithPriorityCommitment).
//   - Faults: injected statuses, latency and cut connections (InjectFault,
//     FailNext), and broken streams. A status answered before the request
//     is handled (nothing happened) or after it took effect
//     (Fault.AfterApply: a 500 for a session that was created); a cut
//     connection after the request took effect (Fault.DropAfterBytes);
//     x-should-retry (Fault.ShouldRetry).
//   - Scripts: scripted model turns (Script, WithScript).
//   - Platforms: a partner or cloud platform's wire in front of the fake
//     (WithPlatform; the platform modules provide the fronts).
//   - Webhooks: signed deliveries of the managed-agents events it causes
//     to a test's URL, with retries, redeliveries and secret rotation
//     (WithWebhooks; see "Webhooks" below).
//   - The Organization (Admin) API (admin*.go): an organization tests seed
//     through Server.Org (users, workspaces and members, API keys, service
//     accounts, RBAC roles, spend rows, analytics rows, usage for the
//     reports) and every GA operation of /v1/organizations/, the webhook
//     endpoints, spend-limit extras and sign-out, and compliance review
//     (/v1/compliance/review/, admin_compliance.go: cases, items and
//     notices seeded with Org.AddReviewCase, Org.AddReviewNotice and
//     Org.EndReviewCase); admin keys (DefaultAdminKey, WithAdminKeys)
//     authenticate only there, and each
//     family takes the credential the service takes (an admin key, an
//     org:admin token from WithOrgAdminTokens, or for analytics and
//     reports any key). It does not model organization types (Console or
//     Enterprise), seats, SCIM, owner-access checks, token scopes beyond
//     org:admin, or admin key scopes (compliance review's included).
//
// # What it does not simulate
//
//   - A model. Replies are a deterministic function of the request (an
//     echo of the prompt; tool inputs built from the input schema) or the
//     scripted turns; nothing is generated, and token counts are an
//     estimate of 4 bytes a token, not a tokenizer's.
//   - Server tools. Web search, web fetch and code execution results are
//     made up; no code runs and no URL is fetched. Session tools "run" with
//     made-up output.
//   - Container expiry. A container's expires_at moves an hour past each
//     use, but an issued container id is accepted forever.
//   - Credentials' and tunnels' outside world: no MCP server is probed, no
//     tunnel connects, no identity token's signature is checked (a
//     federation rule's Accept function decides).
//   - Token-based rate limits (input and output tokens per minute) and
//     concurrency limits: only the request count is limited.
//   - A deployment schedule's jitter (fires come exactly on the minute,
//     at most 10 per look at the clock), and a dream's work: its session
//     id names no stored session, and a create_new output store starts
//     empty rather than as a copy of the input's memories.
//   - Persistence and other users: state lives in memory (large uploads in
//     temporary files) and is gone when the server closes; there is one
//     organization, and workspaces exist only as names in federation rules.
//   - Endpoints it does not route (a 404 with the service's body): only
//     the ones in routes.go exist.
//
// # Messages
//
// POST /v1/messages and POST /v1/messages/count_tokens check the request
// form strictly, as the service does: a member that the form of its block,
// tool, citation or parameter does not define is a 400 naming its path
// ("messages.1.content.0.citations.0.file_id: Extra inputs are not
// permitted"), and a beta-only piece needs its vendor-beta value. Then come
// the conversation rules (every tool_result answers a tool_use of the
// assistant turn before it, and every tool_use is answered; consecutive
// turns of one role merge; a trailing assistant turn is a prefill the reply
// continues), then the model: one the server does not serve is a 404
// "model: <id>". A structured-output format (output_config.format, or
// the beta output_format) must keep to the service's limits: every object
// of its schema has "additionalProperties": false, and every string format
// is one of date-time, date, time, duration, email, hostname, uri, ipv4,
// ipv6 and uuid (a 400 naming the schema path otherwise).
//
// Mid-conversation system messages (role "system": an array of text,
// tool_addition and tool_removal blocks; clear_at and output_config behind
// their betas, on system messages only) are not turns: the conversation
// rules and the reply skip them, and their JSON counts toward input tokens.
// An inline tool_definition (beta inline-tools-2026-09-15) is checked as a
// tools entry; a name already declared or defined is a 400 with error_code
// tool_name_conflict. The rules are in messages_system.go.
//
// The reply is a deterministic function of the request:
//
//   - The prompt is the text of the last user turn (its string content or
//     text blocks, joined by newlines); the echo is the prompt followed by
//     the text of that turn's tool_result blocks.
//   - With thinking enabled or adaptive, and no prefill, a thinking block
//     "The user said: <echo, clipped to 200 bytes>" comes first ("" with
//     display "omitted").
//   - When the conversation ends with an assistant turn whose last block
//     is a server_tool_use without its result (a pause_turn sent back to
//     continue), the reply starts with that tool's result: a
//     web_search_tool_result with one result, a web_fetch_tool_result
//     with a short text document, or a code_execution_tool_result whose
//     stdout is the code.
//   - Then a text block "You said: <echo>"; with a structured-output
//     format, the text is instead JSON built from the format's schema as
//     tool inputs are (below).
//   - Then, for each document of the last user turn with citations enabled
//     whose plain text the fake can read (a text source, or a stored
//     text/plain file), a text block "The document says: <first sentence>"
//     citing that sentence (char_location; streamed as citations_delta).
//   - Then a tool_use block for each custom tool whose name occurs in the
//     prompt, in tools order: only the first with
//     disable_parallel_tool_use, none with tool_choice "none", the named one
//     with tool_choice "tool", the first custom tool with "any" when none
//     is named. Tool results alone never cause calls. The input holds the
//     input_schema's required properties: an enum's or const's first value,
//     anyOf -> its first non-null branch, a type list -> its first non-null
//     type, integer and number -> 1, boolean -> true, array -> minItems
//     items (none without), null -> null, object -> its own required
//     properties, a string with a supported format -> a value of that
//     format (date-time, date and time from the server's clock), string or
//     anything else -> the prompt. A $ref to "#", "#/$defs/…" or
//     "#/definitions/…" is followed; past a few nested $refs an anyOf or a
//     type list takes its null branch, so recursive schemas end.
//   - stop_sequences cut the text at the earliest match, dropping what
//     follows (stop_reason "stop_sequence").
//   - A token is 4 bytes, rounded up: output beyond max_tokens is cut, a
//     tool_use that does not fit whole is dropped (stop_reason
//     "max_tokens"); max_tokens 0 gives no content. usage.input_tokens
//     counts the compact JSON of system, messages, tools, tool_choice,
//     thinking, output_config, output_format, mcp_servers and
//     context_management, so it equals what count_tokens returns, less
//     the tokens of a cached prompt prefix: prompt caching is simulated
//     (cache_control breakpoints of at least MinCacheableTokens, written
//     and read on the server's clock; see messages_cache.go), reported in
//     cache_creation_input_tokens and cache_read_input_tokens.
//   - Otherwise stop_reason is "tool_use" when a tool is called, else
//     "end_turn".
//   - A request with a code_execution tool or a container member gets a
//     container {id, expires_at (an hour after this request, on the
//     server's clock), skills}: the one it names, which must be one the
//     server issued (a 404 otherwise), else a new container_ id; skills
//     given in the request replace the container's. Streams carry it in
//     message_start and message_delta.
//
// A request with "compaction" (beta compact-2026-09-04) gets no model
// reply: one compaction block summarizing the conversation (a line per
// message's text, the leading compaction block's summary first, then the
// instructions unless they are only white space), signed, with the
// conversation's tool_addition and tool_removal blocks as tool_changes
// ([] when none); stop_reason "compaction"; the tokens in one "compaction"
// entry of usage.iterations, the top-level counters 0. It takes no script
// turn. With context_management it is a 400; count_tokens ignores it. A
// compaction block sent back is checked on create and count_tokens, with
// error.details.error_code: a damaged signature is
// compaction_signature_invalid, changed content or tool_changes
// compaction_content_mismatch or compaction_tool_changes_mismatch (blocks
// without a signature are not checked, any other signature is invalid); a
// block with content (or encrypted_content) anywhere but the first block
// of the first message is compaction_block_misplaced, two of them
// compaction_block_ambiguous, one in a system message misplaced; blocks
// whose content is null are no-ops and may stand anywhere else. A
// compaction request with nothing but a compaction block to summarize is
// compaction_nothing_to_summarize.
//
// A script replaces the deterministic reply, turn by turn (Script,
// WithScript): each create request, streaming or not, takes the next Turn.
// Its ToolCalls become tool_use blocks after the text (inputs as given,
// or built from the tool's input_schema as above), stop_reason "tool_use";
// its Text replaces the text; PauseTurn replies with a server_tool_use of
// the request's first web_search, web_fetch or code_execution tool
// (input {"query": <prompt>}, {"url": …} or {"code": …}) and stop_reason
// "pause_turn". The fake reaches no MCP server: MCPToolListings stand for
// the tool lists the service would fetch, each an mcp_tool_listing block
// after the thinking, unless the request's mcp_toolset pins its tools or
// the conversation already holds a listing of that server (which the
// service reuses). Thinking, stop sequences and max_tokens apply as to any
// reply. A turn the request cannot support is a 500 api_error naming the
// turn. count_tokens and batch items never take a turn.
//
// Ids (msg_, toolu_) come from per-server counters. Thinking signatures are
// HMACs, under a fixed key, of the thinking text and the block's position:
// a thinking block the fake issued must come back unchanged and in place,
// or the request is a 400; signatures it did not issue (the service's, in
// recorded conversations) are accepted as opaque. Base64 images must match
// their media_type; with transformations.oversized_image "error" an image
// over 8000 px on a side is refused. With "stream": true the same reply
// comes as server-sent events, flushed one by one; InjectStreamFault breaks
// streams mid-body.
//
// # Sessions
//
// Managed-agent sessions run: each session has a turn engine, a goroutine
// that takes the events sent to the session (POST …/events, or the
// initial_events of its creation) in order and emits what a real session
// emits, stored in the session's log (SessionEventLog) and its threads'
// logs (ThreadEventLog) and sent on the open streams
// (GET …/events/stream, GET …/threads/{id}/stream), with event_start and
// event_delta previews for streams that ask. The send answers at once;
// the turn follows asynchronously (WithSessionEventDelay slows it down).
// The same input gives the same events:
//
//   - user.message: session.status_running, span.model_request_start,
//     agent.thinking when the text contains "think", agent.message "You
//     said: <text>", span.model_request_end (model_usage counts 4 bytes a
//     token), session.usage. A text containing "overloaded" first gets
//     session.error {model_overloaded_error, retry_status retrying},
//     session.status_rescheduled and session.status_running. Then a call
//     of each of the agent's tools whose name occurs in the text, in tools
//     order, its input built from the tool's input_schema as for Messages
//     (the built-in tools' from their required inputs): a custom tool makes
//     agent.custom_tool_use, which waits for user.custom_tool_result; an
//     enabled built-in tool of the agent toolset makes agent.tool_use with
//     evaluated_permission "allow" (policy always_allow, the default: the
//     fake runs it and emits agent.tool_result with made-up output, or in a
//     self-hosted environment waits for user.tool_result) or "ask" (any
//     other policy: it waits for user.tool_confirmation; allowed it runs as
//     above, denied it gets an is_error agent.tool_result carrying the deny
//     message). While calls wait the session is idle with stop_reason
//     requires_action naming them, re-emitted after each answer with the
//     rest; then session.status_running. When a call waited or a tool ran,
//     a second model request answers the results; the turn ends with
//     session.status_idle {end_turn}.
//   - Multi-agent: a roster member whose name occurs in the text gets
//     agent.thread_message_sent and session.thread_status_running in the
//     session's log; its thread's log gets agent.thread_message_received
//     (from the session's id: the coordinator has no thread of its own in
//     the fake), a model request and its own tool calls (those that wait
//     are cross-posted to the session's log with session_thread_id); when
//     it is done, session.thread_status_idle and
//     agent.thread_message_received come back to the session's log.
//   - user.interrupt abandons the waiting calls (answers to them are then
//     refused) and ends the turn with session.status_idle {end_turn}; one
//     naming a thread abandons only that thread's calls.
//   - user.define_outcome: session.status_running,
//     span.outcome_evaluation_start, _ongoing and _end {result satisfied},
//     session.status_idle; the session's outcome_evaluations entry follows.
//   - system.message joins the conversation without a turn of its own.
//   - A session with a budget pays 10 millionths of a USD a token; a model
//     request that reaches the budget ends the turn with
//     session.status_idle {budget_reached}, and the session then refuses
//     user.message and user.define_outcome.
//
// The session's record follows: status, usage (with list_cost) and stats;
// a thread's status and usage too. TerminateSession ends a session.
// Deleting a session emits session.deleted; updating one emits
// session.updated with the changed fields. A self-hosted work item's
// sessions_token ("sk-session-<session id>") is accepted as a bearer token
// for that session's own endpoints only. Server.Close stops every engine
// and stream.
//
// Memory stores (/v1/memory_stores, the agent-memory beta and never the
// managed-agents one) hold memories: text files at unique, case-sensitive
// paths, with content_sha256 and content_size_bytes computed. Every
// create, change and delete of a memory records a version whose
// created_by is an api_actor for x-api-key requests (api_key_id
// "apikey_NN", the key's position among the accepted keys, never the key),
// a session_actor for a sessions_token, and a user_actor ("user_NN")
// for other bearer tokens. A taken path is a 409
// memory_path_conflict_error naming conflicting_memory_id and
// conflicting_path; a stale content_sha256 precondition or
// expected_content_sha256 is a 409 memory_precondition_failed_error.
// Lists roll directories deeper than depth up into memory_prefix items;
// redaction nulls a version's content, hash, size and path. A session's
// memory_store resource must name a store that exists and is not
// archived (404 otherwise, as for vaults).
//
// File map: server.go (Server, lifecycle, ids, ClientOptions), options.go (Option values),
// rules.go (the per-request rule chain, body reading), store.go (what the
// stores share: path lookups, locking helpers), uploads.go (spooled
// multipart uploads and stored contents), faults.go (InjectFault,
// FailNext), ratelimit.go, requests.go (the request log), errors.go and json.go
// (response helpers), pagination.go (list paging in both schemes),
// schema.go (the request-form validator), tokens.go (the token estimate),
// routes.go (the route table: every endpoint) and one file per endpoint family:
// models.go; messages.go (handlers, model rules), messages_schema.go
// (request forms), messages_check.go (conversation rules),
// messages_reply.go (the reply), script.go (scripted turns and pause_turn),
// messages_output.go (values for schemas, structured-output limits),
// messages_container.go (containers) and messages_stream.go (streaming and
// StreamFault); batches.go (Message Batches and their lifecycle); files.go
// (Files); skills.go (Skills and their versions); agents.go,
// environments.go and environments_work.go (the work queue), vaults.go and
// vaults_credentials.go; memory_stores.go and memory_stores_memories.go
// (memories and their versions); sessions.go, sessions_resources.go,
// sessions_threads.go, sessions_events.go (list and send),
// sessions_stream.go (event streams) and sessions_sim.go (the turn
// engine); user_profiles.go (User profiles, their beta-gated members and
// enrollment URLs), user_profiles_ga.go (the GA records, enforcement,
// programs, delete and action URLs) and user_profiles_google.go (Google
// data controls); tunnels.go (tunnels, their tokens and CA
// certificates); deployments.go (deployments, their schedules and runs);
// dreams.go (dreams and their lifecycle); oauth.go (the token endpoint
// and minted tokens).
//
// # Tokens
//
// POST /v1/oauth/token mints short-lived access tokens, on the server's
// clock, for the jwt-bearer grant of a WithFederationRule rule and for the
// refresh grant of IssueRefreshToken tokens (rotated on use). A minted
// token authenticates API requests that carry the oauth-2025-04-20 beta
// until it expires (WithTokenLifetime) or RevokeTokens; then it is a 401.
// FailTokenExchanges fails exchanges on demand and TokenExchanges counts
// them. The endpoint's rules are in oauth.go.
//
// # Tunnels
//
// Each tunnel gets a domain no other tunnel ever gets and a connector
// token that reveal_token shows unchanged until rotate_token replaces it.
// Archiving is irreversible: it archives the tunnel's certificates and
// invalidates its token (reveal and rotate then answer 400). Certificates
// are checked as the SDK checks them; fingerprint and expires_at come from
// the certificate itself.
//
// # Webhooks
//
// WithWebhooks(url, secrets...) makes the server POST a delivery for each
// event it causes (the list is in WithWebhooks' documentation) to url:
// an "event" envelope naming the object by id, with webhook-id,
// webhook-timestamp and webhook-signature headers by the Standard
// Webhooks scheme, signed with every secret. Deliveries go one at a time,
// in order, in the background; one not answered with a 2xx is retried (5
// attempts), and WithWebhookRedeliveries sends each answered one again.
// WaitWebhooks waits for them, WebhookDeliveries lists every attempt with
// the receiver's status, DeliverWebhook sends an event the fake does not
// cause (deployments, organization events), and RotateWebhookSecret
// switches the secrets, as regenerating an endpoint's secret does. The
// signing is written from the spec, independently of the SDK's verifier.
package mmstest
