package mms

// ErrorCode is an error body's error.details.error_code ([Error].Code): the
// precise cause of a refusal. Codes not listed here arrive unchanged.
type ErrorCode string

// Error codes of the Messages, Files, Skills, batches, environments and
// self-hosted work endpoints, by the HTTP status the service answers them
// with (api-version-2026-10-21.md §4). The organization-administration
// codes are not listed; they arrive in Code all the same.
const (
	// HTTP 400.
	ErrorCodeAvailableToolsLimitExceeded     ErrorCode = "available_tools_limit_exceeded"
	ErrorCodeClaudeCodeKeyCreatorNotMember   ErrorCode = "claude_code_key_creator_not_member"
	ErrorCodeClaudeCodeVersionTooOld         ErrorCode = "claude_code_version_too_old"
	ErrorCodeCMEKKeyDisabled                 ErrorCode = "cmek_key_disabled"
	ErrorCodeCMEKKeyNetworkBlocked           ErrorCode = "cmek_key_network_blocked"
	ErrorCodeCMEKFeatureUnsupported          ErrorCode = "cmek_feature_unsupported"
	ErrorCodeCMEKNotApproved                 ErrorCode = "cmek_not_approved"
	ErrorCodeCompactionBlockAmbiguous        ErrorCode = "compaction_block_ambiguous"
	ErrorCodeCompactionBlockMisplaced        ErrorCode = "compaction_block_misplaced"
	ErrorCodeCompactionContentMismatch       ErrorCode = "compaction_content_mismatch"
	ErrorCodeCompactionIncompleteTurn        ErrorCode = "compaction_incomplete_turn"
	ErrorCodeCompactionNothingToSummarize    ErrorCode = "compaction_nothing_to_summarize"
	ErrorCodeCompactionSignatureInvalid      ErrorCode = "compaction_signature_invalid"
	ErrorCodeCompactionTooManyToolReferences ErrorCode = "compaction_too_many_tool_references"
	ErrorCodeCompactionToolChangesMismatch   ErrorCode = "compaction_tool_changes_mismatch"
	ErrorCodeImageDimensionsTooLarge         ErrorCode = "image_dimensions_too_large"
	ErrorCodeOrganizationOnHold              ErrorCode = "organization_on_hold"
	ErrorCodeRequestBodyEncodingInvalid      ErrorCode = "request_body_encoding_invalid"
	ErrorCodeRequestBodyEncodingUnsupported  ErrorCode = "request_body_encoding_unsupported"
	ErrorCodeRequestBodyTimeout              ErrorCode = "request_body_timeout"
	ErrorCodeThreadAlreadyContinued          ErrorCode = "thread_already_continued"
	ErrorCodeThreadContinueInFlight          ErrorCode = "thread_continue_in_flight"
	ErrorCodeThreadFingerprintMismatch       ErrorCode = "thread_fingerprint_mismatch"
	ErrorCodeThreadUnsupportedRequest        ErrorCode = "thread_unsupported_request"
	ErrorCodeToolNameConflict                ErrorCode = "tool_name_conflict"
	ErrorCodeToolReferenceUnresolved         ErrorCode = "tool_reference_unresolved"
	ErrorCodeUserProfileRequired             ErrorCode = "user_profile_required"
	ErrorCodeUserProfileNotFound             ErrorCode = "user_profile_not_found"
	ErrorCodeFileNotDownloadable             ErrorCode = "file_not_downloadable"
	ErrorCodeStorageQuotaExceeded            ErrorCode = "storage_quota_exceeded"
	ErrorCodeUnsupportedCharset              ErrorCode = "unsupported_charset"
	ErrorCodeEnvironmentArchived             ErrorCode = "environment_archived"
	ErrorCodeInvalidConfigTypeChange         ErrorCode = "invalid_config_type_change"
	ErrorCodeInvalidMetadata                 ErrorCode = "invalid_metadata"
	// HTTP 402.
	ErrorCodeLinkedOrganizationBillingUnavailable ErrorCode = "linked_organization_billing_unavailable"
	ErrorCodeLinkedOrganizationSpendLimitReached  ErrorCode = "linked_organization_spend_limit_reached"
	// HTTP 403.
	ErrorCodeUserProfileBillingNotAuthorized ErrorCode = "user_profile_billing_not_authorized"
	ErrorCodeUserProfileNotBillable          ErrorCode = "user_profile_not_billable"
	ErrorCodeSandboxEgressRestricted         ErrorCode = "sandbox_egress_restricted"
	ErrorCodeEnvironmentCreateDisabled       ErrorCode = "environment_create_disabled"
	ErrorCodeEnvironmentUpdateDisabled       ErrorCode = "environment_update_disabled"
	ErrorCodeAPIKeyScopeMissing              ErrorCode = "api_key_scope_missing"
	// HTTP 404.
	ErrorCodeThreadNotFound      ErrorCode = "thread_not_found"
	ErrorCodeFileExpired         ErrorCode = "file_expired"
	ErrorCodeEnvironmentNotFound ErrorCode = "environment_not_found"
	// HTTP 409.
	ErrorCodeSkillReadBlockedUndecryptable ErrorCode = "skill_read_blocked_undecryptable"
	ErrorCodeSkillNameTaken                ErrorCode = "skill_name_taken"
	ErrorCodePluginNameTaken               ErrorCode = "plugin_name_taken"
	// HTTP 412.
	ErrorCodeHeartbeatPreconditionFailed ErrorCode = "heartbeat_precondition_failed"
	// HTTP 413.
	ErrorCodeRequestBodyTooLargeAfterDecoding ErrorCode = "request_body_too_large_after_decoding"
	// HTTP 429.
	ErrorCodeContractSpendLimitReached ErrorCode = "contract_spend_limit_reached"
	ErrorCodeEnforcedSpendLimitReached ErrorCode = "enforced_spend_limit_reached"
	ErrorCodeRampLimitExceeded         ErrorCode = "ramp_limit_exceeded"
	// HTTP 503.
	ErrorCodeCMEKKeyUnreachable            ErrorCode = "cmek_key_unreachable"
	ErrorCodeCMEKContextUnavailable        ErrorCode = "cmek_context_unavailable"
	ErrorCodeChangeOutcomeUnknown          ErrorCode = "change_outcome_unknown"
	ErrorCodeAuthorizationCheckUnavailable ErrorCode = "authorization_check_unavailable"
	ErrorCodeRegistrationPending           ErrorCode = "registration_pending"
	// HTTP 529.
	ErrorCodeCompactionUnavailable ErrorCode = "compaction_unavailable"
)
