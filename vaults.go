package mms

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// VaultsService creates, retrieves, updates, lists, archives and deletes
// vaults (/v1/vaults), the per-workspace stores of the credentials a
// session's MCP servers and sandbox use; Credentials manages a vault's
// credentials. Reach it as client.Vaults. Every call sends the
// managed-agents-2026-04-01 beta ([BetaManagedAgents]), merged with the
// caller's betas; option.WithWorkspaceID picks the workspace per call.
type VaultsService struct {
	client *Client
	// Credentials manages the credentials of a vault.
	Credentials *VaultCredentialsService
}

// Vault is a vault's record (the wire type "vault"). Members this SDK
// version does not model are kept in Extra, so json.Marshal writes a reply
// back without loss.
//
//mms:json type=vault
type Vault struct {
	// ID identifies the vault ("vlt_…").
	ID string `json:"id"`
	// DisplayName is the vault's name.
	DisplayName string `json:"display_name"`
	// Metadata is the caller's key-value pairs.
	Metadata map[string]string `json:"metadata"`
	// CreatedAt and UpdatedAt are RFC 3339 strings as the service sent
	// them (see [Vault.Created]).
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	// ArchivedAt is when the vault was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (v Vault) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, v.CreatedAt) }

// VaultDeleted is the answer to [VaultsService.Delete] (the wire type
// "vault_deleted").
//
//mms:json type=vault_deleted
type VaultDeleted struct {
	// ID is the deleted vault's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// maxDisplayNameLen is the display_name limit of vaults and credentials.
const maxDisplayNameLen = 255

// VaultCreateParams are the parameters of [VaultsService.Create].
//
//mms:json
type VaultCreateParams struct {
	// DisplayName names the vault, 1 to 255 characters. Required.
	DisplayName string `json:"display_name"`
	// Metadata is at most 16 pairs, keys of at most 64 characters, values
	// of at most 512.
	Metadata map[string]string `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break: a display name empty
// or longer than 255 characters, or metadata past 16 pairs, 64-character
// keys or 512-character values.
func (p VaultCreateParams) Validate() error {
	if err := validateLength("display_name", p.DisplayName, 1, maxDisplayNameLen); err != nil {
		return err
	}
	return validateMetadata("metadata", p.Metadata)
}

// VaultUpdateParams are the parameters of [VaultsService.Update]. A zero
// field keeps the vault's value.
//
//mms:json
type VaultUpdateParams struct {
	// DisplayName sets the name (1 to 255 characters). [Clear] sends null,
	// which the service accepts; the spec does not say what it does to a
	// vault, whose record always has a name (mmstest keeps the name).
	DisplayName Update[string] `json:"display_name,omitzero"`
	// Metadata upserts and deletes keys; others are kept.
	Metadata MetadataPatch `json:"metadata,omitzero"`
}

// Validate reports the first rule the params break: a display name set
// but empty or longer than 255 characters, or a bad metadata patch.
func (p VaultUpdateParams) Validate() error {
	if err := validateDisplayNameUpdate(p.DisplayName); err != nil {
		return err
	}
	return p.Metadata.validate("metadata")
}

// validateDisplayNameUpdate checks a display name an update sets.
func validateDisplayNameUpdate(u Update[string]) error {
	if v, ok := u.Value(); ok {
		return validateLength("display_name", v, 1, maxDisplayNameLen)
	}
	return nil
}

// Create creates a vault (POST /v1/vaults). The params are checked first
// (see [VaultCreateParams.Validate]); a *ValidationError means nothing was
// sent.
func (s *VaultsService) Create(ctx context.Context, p VaultCreateParams, opts ...option.RequestOption) (*Vault, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a vault (GET /v1/vaults/{vault_id}).
func (s *VaultsService) Get(ctx context.Context, vaultID string, opts ...option.RequestOption) (*Vault, error) {
	return s.at(vaultID).get(ctx, opts)
}

// Update changes a vault's name or metadata (POST /v1/vaults/{vault_id}).
func (s *VaultsService) Update(ctx context.Context, vaultID string, p VaultUpdateParams, opts ...option.RequestOption) (*Vault, error) {
	return s.at(vaultID).update(ctx, p, opts)
}

// Archive archives a vault (POST /v1/vaults/{vault_id}/archive): the
// record is kept with ArchivedAt set, its credentials are archived with it
// and their secrets purged; new sessions naming it fail.
func (s *VaultsService) Archive(ctx context.Context, vaultID string, opts ...option.RequestOption) (*Vault, error) {
	return s.at(vaultID).action(ctx, "/archive", nil, opts)
}

// Delete deletes a vault and its credentials for good (DELETE
// /v1/vaults/{vault_id}).
func (s *VaultsService) Delete(ctx context.Context, vaultID string, opts ...option.RequestOption) (*VaultDeleted, error) {
	return as[VaultDeleted](s.at(vaultID)).delete(ctx, opts)
}

// VaultListParams are the parameters of [VaultsService.List] and
// [VaultsService.ListPage].
type VaultListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived vaults too.
	IncludeArchived bool
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set.
func (p VaultListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p VaultListParams) listArgs() listArgs {
	return archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
}

// List iterates over the vaults, newest first, fetching pages as it goes
// (GET /v1/vaults, cursor scheme). Nothing is sent before the loop starts;
// ranging again lists again from p.Page; an error is yielded once, last.
func (s *VaultsService) List(ctx context.Context, p VaultListParams, opts ...option.RequestOption) iter.Seq2[Vault, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of vaults (GET /v1/vaults). Continue with Page
// set to the page's *NextPage while it is not nil.
func (s *VaultsService) ListPage(ctx context.Context, p VaultListParams, opts ...option.RequestOption) (*Page[Vault], error) {
	return s.all().listPage(ctx, p, opts)
}

// all is the vaults' endpoint (/v1/vaults).
func (s *VaultsService) all() endpoint[Vault] { return managedEndpoint[Vault](s.client, "/v1/vaults") }

// at is one vault's endpoint (/v1/vaults/{vault_id}).
func (s *VaultsService) at(vaultID string) endpoint[Vault] {
	return s.all().id("vault_id", vaultID)
}
