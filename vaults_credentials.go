package mms

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// VaultCredentialsService creates, retrieves, updates, lists, archives,
// deletes and checks the credentials of a vault
// (/v1/vaults/{vault_id}/credentials). Reach it as client.Vaults.Credentials.
// Every call sends the managed-agents beta, merged with the caller's.
// The service never returns a credential's secrets; the params hold them
// as [Secret], which fmt and slog print redacted.
type VaultCredentialsService struct {
	client *Client
}

// VaultCredential is a credential's record (the wire type
// "vault_credential"). It holds no secret: the service does not return
// them. Members this SDK version does not model are kept in Extra.
//
//mms:json type=vault_credential
type VaultCredential struct {
	// ID identifies the credential ("vcrd_…").
	ID string `json:"id"`
	// VaultID is the vault holding it.
	VaultID string `json:"vault_id"`
	// DisplayName is the credential's name; nil when absent or null.
	DisplayName *string `json:"display_name,omitzero"`
	// Auth is the credential's kind and its non-secret members.
	Auth VaultCredentialAuth `json:"auth"`
	// Metadata is the caller's key-value pairs.
	Metadata map[string]string `json:"metadata"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them.
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the credential was archived (its secret purged);
	// nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// VaultCredentialDeleted is the answer to [VaultCredentialsService.Delete]
// (the wire type "vault_credential_deleted").
//
//mms:json type=vault_credential_deleted
type VaultCredentialDeleted struct {
	// ID is the deleted credential's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// VaultCredentialValidationStatus is a validation's verdict. Unknown
// values pass through.
type VaultCredentialValidationStatus string

// The verdicts.
const (
	// The credential works.
	VaultCredentialValid VaultCredentialValidationStatus = "valid"
	// The grant is gone: authorize again.
	VaultCredentialInvalid VaultCredentialValidationStatus = "invalid"
	// A transient failure: retry.
	VaultCredentialUnknown VaultCredentialValidationStatus = "unknown"
)

// VaultCredentialRefreshStatus is the outcome of a validation's token
// refresh. Unknown values pass through.
type VaultCredentialRefreshStatus string

// The refresh outcomes.
const (
	VaultCredentialRefreshSucceeded      VaultCredentialRefreshStatus = "succeeded"
	VaultCredentialRefreshFailed         VaultCredentialRefreshStatus = "failed"
	VaultCredentialRefreshConnectError   VaultCredentialRefreshStatus = "connect_error"
	VaultCredentialRefreshNoRefreshToken VaultCredentialRefreshStatus = "no_refresh_token"
)

// VaultCredentialValidation is the answer to
// [VaultCredentialsService.ValidateMCPOAuth] (the wire type
// "vault_credential_validation").
//
//mms:json type=vault_credential_validation
type VaultCredentialValidation struct {
	// CredentialID and VaultID name the credential checked.
	CredentialID string `json:"credential_id"`
	VaultID      string `json:"vault_id"`
	// ValidatedAt is when it was checked (RFC 3339).
	ValidatedAt string `json:"validated_at"`
	// Status is the verdict.
	Status VaultCredentialValidationStatus `json:"status"`
	// HasRefreshToken reports whether the credential can refresh.
	HasRefreshToken bool `json:"has_refresh_token"`
	// MCPProbe is the failing step of the probe of the MCP server; nil
	// when absent or null.
	MCPProbe *VaultCredentialMCPProbe `json:"mcp_probe,omitzero"`
	// Refresh is the token refresh attempted; nil when absent or null.
	Refresh *VaultCredentialRefreshCheck `json:"refresh,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// VaultCredentialMCPProbe is the MCP step a validation failed at.
//
//mms:json
type VaultCredentialMCPProbe struct {
	// Method is the MCP method that failed.
	Method string `json:"method"`
	// HTTPResponse is the server's answer; nil when absent or null.
	HTTPResponse *VaultCredentialHTTPResponse `json:"http_response,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// VaultCredentialRefreshCheck is a validation's token refresh.
//
//mms:json
type VaultCredentialRefreshCheck struct {
	// Status is the outcome.
	Status VaultCredentialRefreshStatus `json:"status"`
	// HTTPResponse is the token endpoint's answer; nil when absent or null.
	HTTPResponse *VaultCredentialHTTPResponse `json:"http_response,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// VaultCredentialHTTPResponse is an HTTP answer a validation saw, its body
// scrubbed of secrets and perhaps truncated.
//
//mms:json
type VaultCredentialHTTPResponse struct {
	StatusCode    int    `json:"status_code"`
	ContentType   string `json:"content_type"`
	Body          string `json:"body"`
	BodyTruncated bool   `json:"body_truncated"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// VaultCredentialCreateParams are the parameters of
// [VaultCredentialsService.Create].
//
//mms:json
type VaultCredentialCreateParams struct {
	// DisplayName names the credential, 1 to 255 characters; "" sends
	// none.
	DisplayName string `json:"display_name,omitzero"`
	// Auth is the credential's kind with its secret. Required.
	Auth VaultCredentialAuthParams `json:"auth"`
	// Metadata is at most 16 pairs, keys of at most 64 characters, values
	// of at most 512.
	Metadata map[string]string `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break (no error names a
// secret's value): a display name longer than 255 characters, a missing
// auth, the auth's rules (a server URL of 1–2047 characters, an access
// token of 1–8192, an expiry not in the future by this machine's clock, a
// refresh missing its client id (≤ 1024), refresh token, token endpoint or
// endpoint auth, a client_secret_* method without its secret, a missing
// static token, secret name, secret value or networking, more than 16
// allowed hosts or one that is not a host, IPv4 address or *.domain), or
// bad metadata.
func (p VaultCredentialCreateParams) Validate() error { return p.validate(time.Now()) }

func (p VaultCredentialCreateParams) validate(now time.Time) error {
	if err := validateLength("display_name", p.DisplayName, 0, maxDisplayNameLen); err != nil {
		return err
	}
	if p.Auth == nil {
		return invalid("auth", "is required")
	}
	if err := p.Auth.validate("auth", now); err != nil {
		return err
	}
	return validateMetadata("metadata", p.Metadata)
}

// VaultCredentialUpdateParams are the parameters of
// [VaultCredentialsService.Update]. A zero field keeps the credential's
// value.
//
//mms:json
type VaultCredentialUpdateParams struct {
	// DisplayName sets (1 to 255 characters) or clears the name.
	DisplayName Update[string] `json:"display_name,omitzero"`
	// Auth changes the auth's mutable members; its kind must be the
	// credential's. nil keeps the auth.
	Auth VaultCredentialAuthUpdateParams `json:"auth,omitzero"`
	// Metadata upserts and deletes keys; others are kept.
	Metadata MetadataPatch `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break: a display name set
// but empty or too long, an access token over 8192 characters, an expiry
// not in the future, a token endpoint auth of "none", a networking as on
// create, or a bad metadata patch.
func (p VaultCredentialUpdateParams) Validate() error { return p.validate(time.Now()) }

func (p VaultCredentialUpdateParams) validate(now time.Time) error {
	if err := validateDisplayNameUpdate(p.DisplayName); err != nil {
		return err
	}
	if p.Auth != nil {
		if err := p.Auth.validate("auth", now); err != nil {
			return err
		}
	}
	return p.Metadata.validate("metadata")
}

// Create adds a credential to a vault (POST
// /v1/vaults/{vault_id}/credentials). A vault holds at most 20, one active
// per MCP server URL or secret name (the service answers 409 otherwise).
func (s *VaultCredentialsService) Create(ctx context.Context, vaultID string, p VaultCredentialCreateParams, opts ...option.RequestOption) (*VaultCredential, error) {
	return s.all(vaultID).post(ctx, p, opts)
}

// Get retrieves a credential (GET
// /v1/vaults/{vault_id}/credentials/{credential_id}).
func (s *VaultCredentialsService) Get(ctx context.Context, vaultID, credentialID string, opts ...option.RequestOption) (*VaultCredential, error) {
	return s.at(vaultID, credentialID).get(ctx, opts)
}

// Update changes a credential (POST
// /v1/vaults/{vault_id}/credentials/{credential_id}); changes reach
// running sessions.
func (s *VaultCredentialsService) Update(ctx context.Context, vaultID, credentialID string, p VaultCredentialUpdateParams, opts ...option.RequestOption) (*VaultCredential, error) {
	return s.at(vaultID, credentialID).update(ctx, p, opts)
}

// Archive archives a credential (POST …/credentials/{credential_id}/archive):
// its secret is purged, the record kept, and its server URL or secret name
// is free for a new credential.
func (s *VaultCredentialsService) Archive(ctx context.Context, vaultID, credentialID string, opts ...option.RequestOption) (*VaultCredential, error) {
	return s.at(vaultID, credentialID).action(ctx, "/archive", nil, opts)
}

// Delete deletes a credential for good (DELETE
// /v1/vaults/{vault_id}/credentials/{credential_id}).
func (s *VaultCredentialsService) Delete(ctx context.Context, vaultID, credentialID string, opts ...option.RequestOption) (*VaultCredentialDeleted, error) {
	return as[VaultCredentialDeleted](s.at(vaultID, credentialID)).delete(ctx, opts)
}

// ValidateMCPOAuth checks an mcp_oauth credential against its MCP server
// and token endpoint now (POST …/credentials/{credential_id}/mcp_oauth_validate).
func (s *VaultCredentialsService) ValidateMCPOAuth(ctx context.Context, vaultID, credentialID string, opts ...option.RequestOption) (*VaultCredentialValidation, error) {
	return as[VaultCredentialValidation](s.at(vaultID, credentialID)).action(ctx, "/mcp_oauth_validate", nil, opts)
}

// VaultCredentialListParams are the parameters of
// [VaultCredentialsService.List] and [VaultCredentialsService.ListPage].
type VaultCredentialListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived credentials too.
	IncludeArchived bool
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set.
func (p VaultCredentialListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p VaultCredentialListParams) listArgs() listArgs {
	return archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
}

// List iterates over a vault's credentials, newest first, fetching pages
// as it goes (GET /v1/vaults/{vault_id}/credentials, cursor scheme).
// Nothing is sent before the loop starts; an error is yielded once, last.
func (s *VaultCredentialsService) List(ctx context.Context, vaultID string, p VaultCredentialListParams, opts ...option.RequestOption) iter.Seq2[VaultCredential, error] {
	return s.all(vaultID).list(ctx, p, opts)
}

// ListPage fetches one page of a vault's credentials (GET
// /v1/vaults/{vault_id}/credentials).
func (s *VaultCredentialsService) ListPage(ctx context.Context, vaultID string, p VaultCredentialListParams, opts ...option.RequestOption) (*Page[VaultCredential], error) {
	return s.all(vaultID).listPage(ctx, p, opts)
}

// LogValue prints the params for slog with their secrets redacted (see
// [Secret]); slog's JSON handler would otherwise marshal the wire form.
func (p VaultCredentialCreateParams) LogValue() slog.Value { return logRedacted(p) }

// LogValue prints the params for slog with their secrets redacted.
func (p VaultCredentialUpdateParams) LogValue() slog.Value { return logRedacted(p) }

// all is a vault's credentials' endpoint (/v1/vaults/{vault_id}/credentials).
func (s *VaultCredentialsService) all(vaultID string) endpoint[VaultCredential] {
	return managedEndpoint[VaultCredential](s.client, "/v1/vaults").id("vault_id", vaultID).sub("/credentials")
}

// at is one credential's endpoint
// (/v1/vaults/{vault_id}/credentials/{credential_id}).
func (s *VaultCredentialsService) at(vaultID, credentialID string) endpoint[VaultCredential] {
	return s.all(vaultID).id("credential_id", credentialID)
}
