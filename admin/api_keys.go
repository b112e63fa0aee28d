package admin

import (
	"context"
	"encoding/json"
	"iter"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/option"
)

// APIKeysService retrieves, updates and lists the organization's API keys
// (/v1/organizations/api_keys; admin key). The API has no create or
// delete: keys are made in the Console. Reach it as c.APIKeys.
type APIKeysService struct{ c *Client }

// APIKeyStatus is an API key's status.
type APIKeyStatus string

// The API key statuses; expired is read-only (a list filter, never an
// update).
const (
	APIKeyStatusActive   APIKeyStatus = "active"
	APIKeyStatusInactive APIKeyStatus = "inactive"
	APIKeyStatusArchived APIKeyStatus = "archived"
	APIKeyStatusExpired  APIKeyStatus = "expired"
)

// APIKey is an API key's record (the wire type "api_key"); the key itself
// is never returned, only a redacted hint.
//
//mms:json type=api_key
type APIKey struct {
	// ID identifies the key ("apikey_…").
	ID string `json:"id"`
	// Name is the key's name.
	Name string `json:"name"`
	// PartialKeyHint is a redacted hint of the key.
	PartialKeyHint string `json:"partial_key_hint"`
	// Status is the key's status.
	Status APIKeyStatus `json:"status"`
	// CreatedAt is when the key was made.
	CreatedAt time.Time `json:"created_at"`
	// ExpiresAt is when it expires; nil: never.
	ExpiresAt *time.Time `json:"expires_at"`
	// CreatedBy is who made it; nil when not recorded.
	CreatedBy *Actor `json:"created_by"`
	// Principal is who the key acts as; nil when not bound.
	Principal KeyPrincipal `json:"principal"`
	// Scope is the workspace (or the organization) the key belongs to.
	Scope KeyScope `json:"scope"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Actor names a user or a service account ({id, type}).
//
//mms:json
type Actor struct {
	// ID is the user's or service account's id.
	ID string `json:"id"`
	// Type is "user" or "service_account".
	Type string `json:"type"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A KeyPrincipal is who an API key acts as: [UserActor],
// [ServiceAccountActor] or [UnknownKeyPrincipal].
type KeyPrincipal interface {
	json.Marshaler
	isKeyPrincipal()
}

var keyPrincipalUnion = codec.NewUnion[KeyPrincipal]("KeyPrincipal", UnknownKeyPrincipal{}).
	Add("user_actor", UserActor{}).
	Add("service_account_actor", ServiceAccountActor{})

// UserActor is a user a key acts as (the wire type "user_actor").
type UserActor struct {
	// UserID is the user's id.
	UserID string `json:"user_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ServiceAccountActor is a service account a key acts as (the wire type
// "service_account_actor").
type ServiceAccountActor struct {
	// ServiceAccountID is the service account's id.
	ServiceAccountID string `json:"service_account_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownKeyPrincipal keeps a principal this SDK version cannot name.
type UnknownKeyPrincipal struct {
	Type string
	Raw  json.RawMessage
}

// A KeyScope is where an API key belongs: [WorkspaceKeyScope],
// [OrganizationKeyScope] or [UnknownKeyScope].
type KeyScope interface {
	json.Marshaler
	isKeyScope()
}

var keyScopeUnion = codec.NewUnion[KeyScope]("KeyScope", UnknownKeyScope{}).
	Add("workspace", WorkspaceKeyScope{}).
	Add("organization", OrganizationKeyScope{})

// WorkspaceKeyScope is a workspace key's scope (the wire type
// "workspace"); the default workspace has its real id here too.
type WorkspaceKeyScope struct {
	// WorkspaceID is the key's workspace.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// OrganizationKeyScope is the scope of a principal-bound key without a
// workspace (the wire type "organization").
type OrganizationKeyScope struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownKeyScope keeps a scope this SDK version cannot name.
type UnknownKeyScope struct {
	Type string
	Raw  json.RawMessage
}

// APIKeyUpdateParams are the parameters of [APIKeysService.Update]; a zero
// field is left unchanged.
//
//mms:json
type APIKeyUpdateParams struct {
	// Name renames the key.
	Name string `json:"name,omitzero"`
	// Status sets active, inactive or archived (expired is not settable).
	Status APIKeyStatus `json:"status,omitzero"`
}

// Validate reports a status other than active, inactive and archived.
func (p APIKeyUpdateParams) Validate() error {
	return oneOf("status", p.Status, APIKeyStatusActive, APIKeyStatusInactive, APIKeyStatusArchived)
}

// APIKeyListParams are the parameters of [APIKeysService.List] (id scheme).
type APIKeyListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// AfterID and BeforeID start the list after or before a key (not both).
	AfterID, BeforeID string
	// Status lists only keys in this status.
	Status APIKeyStatus
	// WorkspaceID lists only the workspace's keys.
	WorkspaceID string
	// CreatedByUserID lists only keys made by the user.
	CreatedByUserID string
}

// Validate reports Limit outside 1–1000, AfterID with BeforeID, or an
// unknown Status.
func (p APIKeyListParams) Validate() error {
	if err := validateIDList(p.Limit, p.AfterID, p.BeforeID); err != nil {
		return err
	}
	return oneOf("status", p.Status, APIKeyStatusActive, APIKeyStatusInactive, APIKeyStatusArchived, APIKeyStatusExpired)
}

func (p APIKeyListParams) listArgs() listArgs {
	a := idArgs(p.Limit, p.AfterID, p.BeforeID)
	setString(a.query, "status", p.Status)
	setString(a.query, "workspace_id", p.WorkspaceID)
	setString(a.query, "created_by_user_id", p.CreatedByUserID)
	return a
}

func (s *APIKeysService) at(id string) endpoint[APIKey] {
	return ep[APIKey](s.c, adminbridge.AdminKey, "/api_keys").id("api_key_id", id)
}

// Get retrieves an API key (GET /v1/organizations/api_keys/{api_key_id}).
func (s *APIKeysService) Get(ctx context.Context, apiKeyID string, opts ...option.RequestOption) (*APIKey, error) {
	return s.at(apiKeyID).get(ctx, opts)
}

// Update renames a key or sets its status (POST
// /v1/organizations/api_keys/{api_key_id}); e.g. Status inactive
// deactivates it.
func (s *APIKeysService) Update(ctx context.Context, apiKeyID string, p APIKeyUpdateParams, opts ...option.RequestOption) (*APIKey, error) {
	return s.at(apiKeyID).update(ctx, p, opts)
}

// List iterates over the API keys (GET /v1/organizations/api_keys, id
// scheme), fetching pages as it goes.
func (s *APIKeysService) List(ctx context.Context, p APIKeyListParams, opts ...option.RequestOption) iter.Seq2[APIKey, error] {
	return ep[APIKey](s.c, adminbridge.AdminKey, "/api_keys").list(ctx, adminbridge.ID, p, opts)
}

// ListPage fetches one page of API keys (GET /v1/organizations/api_keys).
func (s *APIKeysService) ListPage(ctx context.Context, p APIKeyListParams, opts ...option.RequestOption) (*mms.Page[APIKey], error) {
	return ep[APIKey](s.c, adminbridge.AdminKey, "/api_keys").listPage(ctx, adminbridge.ID, p, opts)
}
