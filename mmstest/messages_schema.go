package mmstest

import "strings"

// The request forms of POST /v1/messages and POST /v1/messages/count_tokens,
// in the notation of schema.go. Members a
// shape does not list are refused, as the service refuses them. Beta
// pairings follow the Messages reference; where the spec names none for a
// beta-only piece (computer_20251124, output_config.task_budget) the piece
// is accepted without one.
//
// Response-only members are absent on purpose: a citation's file_id,
// for instance, is refused when a client sends a response block
// back. One member outside the spec is accepted because recorded responses
// carry it and clients send it back: code_execution_result.abort_reason.

// Beta values that gate request pieces.
const (
	betaContextManagement = "context-management-2025-06-27"
	betaMCPClients        = "mcp-client-2025-04-04/mcp-client-2025-11-20/mcp-client-2026-09-15"
	betaMCPToolsets       = "mcp-client-2025-11-20/mcp-client-2026-09-15"
	betaMCPPinnedTools    = "mcp-client-2026-09-15"
	betaAdvisorTool       = "advisor-tool-2026-03-01"
	betaFallbacks         = "server-side-fallback-2026-06-01/server-side-fallback-2026-07-01"
	betaToolChanges       = "mid-conversation-tool-changes-2026-07-01"
	betaThinkingBinding   = "thinking-binding-controls-2026-08-01"
	betaCompact           = "compact-2026-09-04"
)

// Toolset member keys.
const (
	computerToolsetMembers = "cursor_position double_click hold_key key left_click left_click_drag left_mouse_down " +
		"left_mouse_up middle_click mouse_move right_click screenshot scroll triple_click type wait zoom"
	browserToolsetMembers = "close_tab double_click file_upload find form_input get_page_text hold_key hover " +
		"javascript_exec key left_click left_click_drag left_mouse_down left_mouse_up list_tabs middle_click " +
		"mouse_move navigate new_tab read_console read_network read_page right_click screenshot scroll scroll_to " +
		"switch_tab triple_click type wait zoom"
)

// toolsetConfigs is the shape of a toolset's configs: one optional, nullable
// member per toolset member.
func toolsetConfigs(members string) string {
	var b strings.Builder
	for _, m := range strings.Fields(members) {
		b.WriteString(m + ":?#toolset_member_cfg ")
	}
	return b.String()
}

// messagesSchema holds every request shape of the two endpoints.
var messagesSchema = compileSchema(map[string]string{
	// Fragments.
	"cc":            "cache_control:?@cache_control",
	"caller":        "caller:@caller",
	"callers":       "allowed_callers:[enum(direct,code_execution_20250825,code_execution_20260120,code_execution_20260521)]",
	"tool":          "$cc defer_loading:bool strict:bool $callers",
	"examples":      "input_examples:[obj]",
	"domains":       "allowed_domains:?[str] blocked_domains:?[str] max_uses:?int{>0,}",
	"search":        "name!:enum(web_search) $domains user_location:?@user_location $tool",
	"fetch":         "name!:enum(web_fetch) $domains max_content_tokens:?int{>0,} citations:?#citations_config $fetch_sources $tool",
	"computer":      "name!:enum(computer) display_width_px!:int{1,} display_height_px!:int{1,} display_number:?int{0,} $tool $examples",
	"result":        "tool_use_id!:str~srvtoolu $cc",
	"client_result": "tool_use_id!:str~id $cc",
	"text":          "text!:str{1,} citations:?[@citation] $cc",
	"image":         "source!:@image_source transformations:?#image_transformations $cc",
	"document":      "source!:@document_source citations:?#citations_config context:?str{1,} title:?str{1,500} $cc",
	"search_result": "content!:[@text_block] source!:str title!:str citations:#citations_config $cc",
	// document_title: 1–500 as the seed says (the published schema says 1–255).
	"doc_cite":  "cited_text!:str document_index!:int{0,} document_title:?str{1,500}",
	"ce_result": "stderr!:str return_code!:int content!:[@code_execution_output]",
	"ref_name":  "tool_name!:str{1,256}~ref_name $cc",
	// web_fetch url_sources (GA).
	"fetch_sources": "url_sources:?#url_sources",
	"countable": "model!:str messages!:[#message]{0,100000} cache_control:?@cache_control output_config:#output_config " +
		"system:str|[@text_block] thinking:@thinking tool_choice:@tool_choice tools:[@tool] " +
		"context_management:?#context_management^" + betaContextManagement + " " +
		"mcp_servers:[@mcp_server]{,20}^" + betaMCPClients + " " +
		"output_format:?@output_format^structured-outputs-2025-12-15 " +
		"speed:?enum(standard,fast)^fast-mode-2026-02-01 " +
		"billing_policy:?#billing_policy^user-profiles-billing-2026-10-01 " +
		"compaction:?#compaction^" + betaCompact,
}, map[string]string{
	// Top-level bodies.
	"create": "$countable max_tokens!:int{0,} container:?str|#container_params inference_geo:?str metadata:#metadata " +
		"service_tier:enum(auto,standard_only) stop_sequences:[str] stream:bool temperature:num{0,1} user_profile_id:?str " +
		"top_k:int{0,} top_p:num{0,1} diagnostics:?#diagnostics^cache-diagnosis-2026-04-07 " +
		"fallback_credit_token:?str|#fallback_credit^fallback-credit-2026-06-01/fallback-credit-2026-07-01 " +
		"fallbacks:?[#fallback]|enum(default)^" + betaFallbacks + " " +
		"thread:@thread^message-threads-2026-08-12",
	"count_tokens": "$countable",

	"message": "role!:enum(user,assistant,system) content!:str{1,}|[@block] " +
		"clear_at:enum(never,next_user_message)^" + betaSystemClearAt + " " +
		"output_config:#message_output_config^" + betaMessageOutputConfig, // role rules: messages_system.go
	"message_output_config":  "effort:?enum(low,medium,high,xhigh,max)",
	"citations_config":       "enabled:bool",
	"image_transformations":  "oversized_image:enum(downsize,error)",
	"tab":                    "tab_id!:str title!:str url!:str active:bool",
	"model_ref":              "model!:str",
	"input_schema":           "type!:enum(object) properties:?any required:?[str] ...",
	"toolset_member_cfg":     "enabled:?bool defer_loading:?bool",
	"computer_configs":       toolsetConfigs(computerToolsetMembers),
	"browser_configs":        toolsetConfigs(browserToolsetMembers),
	"output_config":          "effort:?enum(low,medium,high,xhigh,max) format:?@output_format task_budget:?@task_budget",
	"metadata":               "user_id:?str{,512}",
	"container_params":       "id:?str skills:?[#skill]{,8}",
	"skill":                  "type!:enum(vendor,custom) skill_id!:str{1,64} version:str{1,64}",
	"mcp_tool_configuration": "enabled:?bool allowed_tools:?[str]",
	"context_management":     "edits:[@edit]",
	"diagnostics":            "previous_message_id:?str",
	"block_binding":          "prefix_mismatch_behavior:enum(error,drop_block)",
	"billing_policy":         "type!:enum(billing_policy) bill_to:enum(self,user_profile)",
	"compaction":             "type!:enum(summarize) instructions:?str",
	"fallback_credit^fallback-credit-2026-07-01": "token!:str mode:enum(strict,best_effort)",
	"fallback": "model!:str max_tokens:int{0,} thinking:@thinking output_config:#output_config speed:enum(standard,fast)",
	// web_fetch url_sources; MCP tool listings and pinned toolset tools
	// (messages_mcp.go).
	"url_sources": "user_input:?@url_source_input client_tool_results:?@url_source_filter " +
		"server_tool_results:?@url_source_filter",
	"mcp_listed_tool": "name!:str{1,} input_schema!:obj description:?str",
	"mcp_pinned_tool": "name!:str{1," + maxMCPToolNameLen + "} input_schema!:obj description:?str",
}, map[string]map[string]string{
	// Request content blocks.
	"block": {
		"text":              "$text",
		"image":             "$image",
		"document":          "$document",
		"search_result":     "$search_result",
		"thinking":          "thinking!:str signature!:str",
		"redacted_thinking": "data!:str",
		"tool_use":          "id!:str~id name!:str{1,200} input!:obj $caller toolset_name:?str{1,64}~id $cc",
		"tool_result":       "$client_result content:str|[@tool_result_content] is_error:bool toolset_name:?str{1,64}~id",
		"server_tool_use": "id!:str~srvtoolu name!:enum(web_search,web_fetch,code_execution,bash_code_execution," +
			"text_editor_code_execution,tool_search_tool_regex,tool_search_tool_bm25,advisor) input!:obj $caller $cc",
		"web_search_tool_result":                 "$result content!:[@web_search_result]|@web_search_error $caller",
		"web_fetch_tool_result":                  "$result content!:@web_fetch_content $caller",
		"code_execution_tool_result":             "$result content!:@code_execution_content",
		"bash_code_execution_tool_result":        "$result content!:@bash_code_execution_content",
		"text_editor_code_execution_tool_result": "$result content!:@text_editor_code_execution_content",
		"tool_search_tool_result":                "$result content!:@tool_search_content",
		"container_upload":                       "file_id!:str $cc",
		"advisor_tool_result^" + betaAdvisorTool: "$result content!:@advisor_content",
		"mcp_tool_use^" + betaMCPClients:         "id!:str~id name!:str server_name!:str input!:obj $cc",
		"mcp_tool_result^" + betaMCPClients:      "$client_result content:str|[@text_block] is_error:bool",
		"compaction^" + betaContextManagement + "/" + betaCompact: "content:?str encrypted_content:?str $cc " +
			"signature:?str^" + betaCompact + " tool_changes:?[@tool_change_block]^" + betaCompact,
		"fallback^" + betaFallbacks:           "from!:#model_ref to!:#model_ref trigger:any",
		"tool_addition^" + betaToolChanges:    "tool!:@tool_change_ref $cc",
		"tool_removal^" + betaToolChanges:     "tool!:@tool_removal_ref $cc",
		"mcp_tool_listing^" + betaMCPToolsets: "mcp_server_name!:str{1,} tools!:[#mcp_listed_tool]",
	},
	"text_block":     {"text": "$text"},
	"document_block": {"document": "$document"},
	"document_content": {
		"text":  "$text",
		"image": "$image",
	},
	"tool_result_content": {
		"text":           "$text",
		"image":          "$image",
		"search_result":  "$search_result",
		"document":       "$document",
		"tool_reference": "$ref_name",
		"browser_state":  "tabs!:[#tab] state_changes:?[@state_change] $cc",
	},
	"tool_reference": {"tool_reference": "$ref_name"},
	"state_change": {
		"tab_opened":         "tab_id!:str",
		"download_started":   "download_id!:str url!:str",
		"download_completed": "download_id!:str url!:str path:?str size_bytes:?int",
		"download_failed":    "download_id!:str url!:str error:?str",
	},
	"tool_change_block": {
		"tool_addition": "tool!:@tool_change_ref $cc",
		"tool_removal":  "tool!:@tool_removal_ref $cc",
	},
	"tool_change_ref": {
		"tool_reference":        "name!:str",
		"mcp_tool_reference":    "server_name!:str name!:str",
		"mcp_toolset_reference": "server_name!:str",

		"tool_definition^" + betaInlineTools: "definition!:@tool", // tool_addition only
	},
	"tool_removal_ref": {
		"tool_reference":        "name!:str",
		"mcp_tool_reference":    "server_name!:str name!:str",
		"mcp_toolset_reference": "server_name!:str",
	},
	"image_source": {
		"base64": "media_type!:enum(image/jpeg,image/png,image/gif,image/webp) data!:str",
		"url":    "url!:str",
		"file":   "file_id!:str",
	},
	"document_source": {
		"base64":  "media_type!:enum(application/pdf) data!:str",
		"text":    "media_type!:enum(text/plain) data!:str",
		"content": "content!:str|[@document_content]",
		"url":     "url!:str",
		"file":    "file_id!:str",
	},
	// Citations: the response citations without file_id.
	"citation": {
		"char_location":              "$doc_cite start_char_index!:int{0,} end_char_index!:int",
		"page_location":              "$doc_cite start_page_number!:int{1,} end_page_number!:int",
		"content_block_location":     "$doc_cite start_block_index!:int{0,} end_block_index!:int",
		"web_search_result_location": "cited_text!:str encrypted_index!:str title:?str{1,512} url!:str{1,2048}",
		"search_result_location": "cited_text!:str search_result_index!:int{0,} source!:str " +
			"start_block_index!:int{0,} end_block_index!:int title:?str",
	},
	"caller": {
		"direct":                  "",
		"code_execution_20250825": "tool_id!:str~srvtoolu",
		"code_execution_20260120": "tool_id!:str~srvtoolu",
	},
	"cache_control": {"ephemeral": "ttl:enum(5m,1h)"},
	// Server tool result payloads.
	"web_search_result": {"web_search_result": "encrypted_content!:str title!:str url!:str page_age:?str"},
	"web_search_error":  {"web_search_tool_result_error": "error_code!:str"},
	"web_fetch_content": {
		"web_fetch_result":            "url!:str content!:@document_block retrieved_at:?str",
		"web_fetch_tool_result_error": "error_code!:str",
	},
	"code_execution_content": {
		"code_execution_result":            "stdout!:str $ce_result abort_reason:?str",
		"encrypted_code_execution_result":  "encrypted_stdout!:str $ce_result",
		"code_execution_tool_result_error": "error_code!:str",
	},
	"code_execution_output": {"code_execution_output": "file_id!:str"},
	"bash_code_execution_content": {
		"bash_code_execution_result":            "stdout!:str stderr!:str return_code!:int content!:[@bash_code_execution_output]",
		"bash_code_execution_tool_result_error": "error_code!:str",
	},
	"bash_code_execution_output": {"bash_code_execution_output": "file_id!:str"},
	"text_editor_code_execution_content": {
		"text_editor_code_execution_view_result": "content!:str file_type!:enum(text,image,pdf) " +
			"num_lines:?int start_line:?int total_lines:?int",
		"text_editor_code_execution_create_result": "is_file_update!:bool",
		"text_editor_code_execution_str_replace_result": "lines:?[str] new_lines:?int new_start:?int " +
			"old_lines:?int old_start:?int",
		"text_editor_code_execution_tool_result_error": "error_code!:str error_message:?str",
	},
	"tool_search_content": {
		"tool_search_tool_search_result": "tool_references!:[@tool_reference]",
		"tool_search_tool_result_error":  "error_code!:str error_message:?str",
	},
	"advisor_content": {
		"advisor_result":            "text!:str",
		"advisor_redacted_result":   "encrypted_content!:str",
		"advisor_tool_result_error": "error_code!:str",
	},
	// Tool definitions; a tool without a type is a custom tool.
	"tool": {
		"custom?": "name!:str{1,128}~tool_name input_schema!:#input_schema description:str eager_input_streaming:?bool " +
			"$tool $examples",
		"bash_20250124":                                "name!:enum(bash) $tool $examples",
		"bash_20241022^computer-use-2024-10-22":        "name!:enum(bash) $tool $examples",
		"code_execution_20250522":                      "name!:enum(code_execution) $tool",
		"code_execution_20250825":                      "name!:enum(code_execution) $tool",
		"code_execution_20260120":                      "name!:enum(code_execution) $tool",
		"code_execution_20260521":                      "name!:enum(code_execution) $tool",
		"memory_20250818":                              "name!:enum(memory) $tool $examples",
		"text_editor_20250124":                         "name!:enum(str_replace_editor) $tool $examples",
		"text_editor_20250429":                         "name!:enum(str_replace_based_edit_tool) $tool $examples",
		"text_editor_20250728":                         "name!:enum(str_replace_based_edit_tool) max_characters:?int{1,} $tool $examples",
		"text_editor_20241022^computer-use-2024-10-22": "name!:enum(str_replace_editor) $tool $examples",
		"computer_20241022^computer-use-2024-10-22":    "$computer",
		"computer_20250124^computer-use-2025-01-24":    "$computer",
		"computer_20251124":                            "$computer enable_zoom:bool",
		"web_search_20250305":                          "$search",
		"web_search_20260209":                          "$search",
		"web_search_20260318":                          "$search response_inclusion:enum(full,excluded)",
		"web_fetch_20250910":                           "$fetch",
		"web_fetch_20260209":                           "$fetch",
		"web_fetch_20260309":                           "$fetch use_cache:bool",
		"web_fetch_20260318":                           "$fetch use_cache:bool response_inclusion:enum(full,excluded)",
		"tool_search_tool_bm25":                        "name!:enum(tool_search_tool_bm25) $tool",
		"tool_search_tool_bm25_20251119":               "name!:enum(tool_search_tool_bm25) $tool",
		"tool_search_tool_regex":                       "name!:enum(tool_search_tool_regex) $tool",
		"tool_search_tool_regex_20251119":              "name!:enum(tool_search_tool_regex) $tool",
		"advisor_20260301^" + betaAdvisorTool: "name!:enum(advisor) model!:str max_tokens:?int{1,} max_uses:?int{>0,} " +
			"caching:?@cache_control $tool",
		"computer_toolset_20260801": "configs:?#computer_configs $cc $callers",
		"browser_toolset_20260801":  "configs:?#browser_configs $cc $callers",
		"mcp_toolset^" + betaMCPToolsets: "mcp_server_name!:str{1,255} default_config:#toolset_member_cfg " +
			"configs:?map(#toolset_member_cfg) tools:[#mcp_pinned_tool]^" + betaMCPPinnedTools + " $cc",
	},
	"user_location": {"approximate": "city:?str{1,255} country:?str{2,2} region:?str{1,255} timezone:?str{1,255}"},
	"tool_choice": {
		"auto": "disable_parallel_tool_use:bool",
		"any":  "disable_parallel_tool_use:bool",
		"tool": "name!:str disable_parallel_tool_use:bool",
		"none": "",
	},
	"thinking": {
		"enabled": "budget_tokens!:int{1024,} display:?enum(summarized,omitted,updates) " +
			"block_binding:?#block_binding^" + betaThinkingBinding,
		"adaptive":      "display:?enum(summarized,omitted,updates) block_binding:?#block_binding^" + betaThinkingBinding,
		"between_tools": "",
		"disabled":      "",
	},
	"output_format": {"json_schema": "schema!:obj"},
	"thread":        {"create": "", "continue": "previous_message_id!:str{1,}"},
	"task_budget":   {"tokens": "total!:int{1024,} remaining:?int{0,}"},
	"mcp_server": {"url": "name!:str url!:str authorization_token:?str " +
		"tool_configuration:?#mcp_tool_configuration"},
	// Context management edits.
	"edit": {
		"clear_tool_uses_20250919": "trigger:@cm_trigger keep:@cm_tool_uses clear_at_least:?@cm_input_tokens " +
			"clear_tool_inputs:?bool|[str] exclude_tools:?[str]",
		"clear_thinking_20251015": "keep:@cm_thinking_keep|enum(all)",
		"compact_20260112":        "trigger:?@cm_input_trigger instructions:?str pause_after_compaction:bool",
	},
	"cm_trigger":       {"input_tokens": "value!:int{1,}", "tool_uses": "value!:int{1,}"},
	"cm_input_trigger": {"input_tokens": "value!:int{1,}"},
	"cm_tool_uses":     {"tool_uses": "value!:int{0,}"},
	"cm_input_tokens":  {"input_tokens": "value!:int{0,}"},
	"cm_thinking_keep": {"thinking_turns": "value!:int{1,}", "all": ""},
	// web_fetch url_sources filters.
	"url_source_input": {"all": "", "none": ""},
	"url_source_filter": {
		"all":    "",
		"none":   "",
		"only":   "tools!:[@tool_reference_name]",
		"except": "tools!:[@tool_reference_name]",
	},
	"tool_reference_name": {"tool_reference": "name!:str{1,}"},
})
