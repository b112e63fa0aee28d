package mms

import "encoding/json"

// The session.error types R2 added: tool-use and compaction limits and
// the repository errors, each with its repository's URL.

// SessionToolUseLimitReachedError: the turn hit a tool-round limit or repeated cut-off single-call responses; the thread idles with retries_exhausted and a child thread terminates (the wire type "tool_use_limit_reached_error").
type SessionToolUseLimitReachedError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorType returns "tool_use_limit_reached_error", the error's wire type.
func (SessionToolUseLimitReachedError) ErrorType() string { return "tool_use_limit_reached_error" }

// ErrorMessage returns the error's message.
func (e SessionToolUseLimitReachedError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionToolUseLimitReachedError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// SessionCompactionLimitReachedError: too many consecutive compactions without output (the wire type "compaction_limit_reached_error").
type SessionCompactionLimitReachedError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorType returns "compaction_limit_reached_error", the error's wire type.
func (SessionCompactionLimitReachedError) ErrorType() string { return "compaction_limit_reached_error" }

// ErrorMessage returns the error's message.
func (e SessionCompactionLimitReachedError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionCompactionLimitReachedError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// SessionRepositoryAuthenticationError: a repository refused the session's credentials (the wire type "repository_authentication_error").
type SessionRepositoryAuthenticationError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// RepositoryURL is the repository's URL.
	RepositoryURL string `json:"repository_url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorType returns "repository_authentication_error", the error's wire type.
func (SessionRepositoryAuthenticationError) ErrorType() string {
	return "repository_authentication_error"
}

// ErrorMessage returns the error's message.
func (e SessionRepositoryAuthenticationError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionRepositoryAuthenticationError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// SessionRepositoryForbiddenError: the session's credentials may not read a repository (the wire type "repository_forbidden_error").
type SessionRepositoryForbiddenError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// RepositoryURL is the repository's URL.
	RepositoryURL string `json:"repository_url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorType returns "repository_forbidden_error", the error's wire type.
func (SessionRepositoryForbiddenError) ErrorType() string { return "repository_forbidden_error" }

// ErrorMessage returns the error's message.
func (e SessionRepositoryForbiddenError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionRepositoryForbiddenError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// SessionRepositoryNotFoundError: a repository was not found (the wire type "repository_not_found_error").
type SessionRepositoryNotFoundError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// RepositoryURL is the repository's URL.
	RepositoryURL string `json:"repository_url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorType returns "repository_not_found_error", the error's wire type.
func (SessionRepositoryNotFoundError) ErrorType() string { return "repository_not_found_error" }

// ErrorMessage returns the error's message.
func (e SessionRepositoryNotFoundError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionRepositoryNotFoundError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// SessionRepositoryCheckoutError: a repository's branch or commit could not be checked out (the wire type "repository_checkout_error").
type SessionRepositoryCheckoutError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// RepositoryURL is the repository's URL.
	RepositoryURL string `json:"repository_url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorType returns "repository_checkout_error", the error's wire type.
func (SessionRepositoryCheckoutError) ErrorType() string { return "repository_checkout_error" }

// ErrorMessage returns the error's message.
func (e SessionRepositoryCheckoutError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionRepositoryCheckoutError) ErrorRetryStatus() string {
	return retryStatusType(e.RetryStatus)
}

// SessionRepositoryCloneError: a repository could not be cloned (the wire type "repository_clone_error").
type SessionRepositoryCloneError struct {
	Message     string             `json:"message"`
	RetryStatus SessionRetryStatus `json:"retry_status"`
	// RepositoryURL is the repository's URL.
	RepositoryURL string `json:"repository_url"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ErrorType returns "repository_clone_error", the error's wire type.
func (SessionRepositoryCloneError) ErrorType() string { return "repository_clone_error" }

// ErrorMessage returns the error's message.
func (e SessionRepositoryCloneError) ErrorMessage() string { return e.Message }

// ErrorRetryStatus returns the type of the error's retry status, or ""
// when it has none.
func (e SessionRepositoryCloneError) ErrorRetryStatus() string { return retryStatusType(e.RetryStatus) }

// SessionRefusal: the turn ended because the response was refused (the
// wire type "refusal"); the idle event's StopDetails says more.
type SessionRefusal struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}
