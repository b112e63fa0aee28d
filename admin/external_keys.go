package admin

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/option"
)

// ExternalKeysService manages customer-managed encryption keys
// (/v1/organizations/external_keys; admin key). Reach it as
// c.ExternalKeys.
type ExternalKeysService struct{ c *Client }

// An ExternalKeyProvider is where a key lives: [AWSKeyProvider],
// [GCPKeyProvider], [AzureKeyProvider] or [UnknownKeyProvider]. Records
// and params share it.
type ExternalKeyProvider interface {
	json.Marshaler
	isExternalKeyProvider()
}

var externalKeyProviderUnion = codec.NewUnion[ExternalKeyProvider]("ExternalKeyProvider", UnknownKeyProvider{}).
	Add("aws", AWSKeyProvider{}).
	Add("gcp", GCPKeyProvider{}).
	Add("azure", AzureKeyProvider{})

// AWSKeyProvider is an AWS KMS key (the wire type "aws").
type AWSKeyProvider struct {
	// KMSARN is the key's ARN. Required.
	KMSARN string `json:"kms_arn"`
	// Region is derived from the ARN when empty.
	Region string `json:"region,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GCPKeyProvider is a Cloud KMS key (the wire type "gcp").
type GCPKeyProvider struct {
	// KeyName is the key's resource name. Required.
	KeyName string `json:"key_name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// AzureKeyProvider is an Azure Key Vault key (the wire type "azure").
type AzureKeyProvider struct {
	// KeyName, TenantID and VaultURI locate the key. Required.
	KeyName  string `json:"key_name"`
	TenantID string `json:"tenant_id"`
	VaultURI string `json:"vault_uri"`
	// ClientID is the app to use; empty uses the vendor's multitenant app.
	ClientID string `json:"client_id,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownKeyProvider keeps a provider this SDK version cannot name.
type UnknownKeyProvider struct {
	Type string
	Raw  json.RawMessage
}

// validateProvider checks a provider config a request sends.
func validateProvider(p ExternalKeyProvider) error {
	const f = "provider_config"
	switch v := p.(type) {
	case nil:
		return invalid(f, "is required")
	case AWSKeyProvider:
		if !strings.HasPrefix(v.KMSARN, "arn:") {
			return invalid(f+".kms_arn", "must be a KMS key ARN (arn:…), got %q", v.KMSARN)
		}
	case GCPKeyProvider:
		return required(f+".key_name", v.KeyName)
	case AzureKeyProvider:
		for _, m := range [][2]string{{"key_name", v.KeyName}, {"tenant_id", v.TenantID}, {"vault_uri", v.VaultURI}} {
			if err := required(f+"."+m[0], m[1]); err != nil {
				return err
			}
		}
		if !strings.HasPrefix(v.VaultURI, "https://") {
			return invalid(f+".vault_uri", "must be an https:// URI")
		}
	case UnknownKeyProvider:
		return invalid(f, "the provider type %q is not one this SDK version can send", v.Type)
	}
	return nil
}

// ExternalKey is an external key's record (the wire type "external_key").
//
//mms:json type=external_key
type ExternalKey struct {
	// ID is "ekey_…" (or, on the AWS-hosted platform, the key's ARN).
	ID string `json:"id"`
	// ProviderConfig locates the key.
	ProviderConfig ExternalKeyProvider `json:"provider_config"`
	// DisplayName is the key's name; nil for none.
	DisplayName *string `json:"display_name"`
	// Geo is the data-residency geo where the key is used.
	Geo string `json:"geo"`
	// UserProfileID binds the key to a profile; nil when unbound.
	UserProfileID *string `json:"user_profile_id"`
	// Attachment is {type: "attached" | "unattached"}.
	Attachment TypeOnly `json:"attachment"`
	// CreatedAt and UpdatedAt are the record's times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ExternalKeyDeleted is the answer to [ExternalKeysService.Delete].
//
//mms:json type=external_key_deleted
type ExternalKeyDeleted struct {
	// ID is the deleted key's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ExternalKeyValidation is the outcome of [ExternalKeysService.Validate]
// (the wire type "external_key_validation"): both outcomes are HTTP 200.
//
//mms:json type=external_key_validation
type ExternalKeyValidation struct {
	// Status is "success" or "failure".
	Status string `json:"status"`
	// Error says what failed; nil unless failure.
	Error *string `json:"error"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ExternalKeyCreateParams are the parameters of [ExternalKeysService.Create].
//
//mms:json
type ExternalKeyCreateParams struct {
	// ProviderConfig locates the key. Required.
	ProviderConfig ExternalKeyProvider `json:"provider_config"`
	// DisplayName names the key.
	DisplayName string `json:"display_name,omitzero"`
	// Geo is where the key is used ("us" only).
	Geo string `json:"geo,omitzero"`
	// UserProfileID binds the key to a user profile.
	UserProfileID string `json:"user_profile_id,omitzero"`
}

// Validate reports a missing or incomplete provider config, or a geo other
// than "us".
func (p ExternalKeyCreateParams) Validate() error {
	if err := validateProvider(p.ProviderConfig); err != nil {
		return err
	}
	return oneOf("geo", p.Geo, "us")
}

// ExternalKeyUpdateParams are the parameters of [ExternalKeysService.Update];
// zero fields are unchanged.
//
//mms:json
type ExternalKeyUpdateParams struct {
	// DisplayName renames the key.
	DisplayName string `json:"display_name,omitzero"`
	// Geo and ProviderConfig change only while no workspace uses the key.
	Geo            string              `json:"geo,omitzero"`
	ProviderConfig ExternalKeyProvider `json:"provider_config,omitzero"`
}

// Validate reports an incomplete provider config or a geo other than "us".
func (p ExternalKeyUpdateParams) Validate() error {
	if p.ProviderConfig != nil {
		if err := validateProvider(p.ProviderConfig); err != nil {
			return err
		}
	}
	return oneOf("geo", p.Geo, "us")
}

func (s *ExternalKeysService) all() endpoint[ExternalKey] {
	return ep[ExternalKey](s.c, adminbridge.AdminKey, "/external_keys")
}

func (s *ExternalKeysService) at(id string) endpoint[ExternalKey] {
	return s.all().id("external_key_id", id)
}

// Create registers an external key (POST /v1/organizations/external_keys).
// Creating: after an unknown outcome the error matches mms.ErrMaybeApplied.
func (s *ExternalKeysService) Create(ctx context.Context, p ExternalKeyCreateParams, opts ...option.RequestOption) (*ExternalKey, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves an external key.
func (s *ExternalKeysService) Get(ctx context.Context, externalKeyID string, opts ...option.RequestOption) (*ExternalKey, error) {
	return s.at(externalKeyID).get(ctx, opts)
}

// Update changes an external key (POST …/external_keys/{external_key_id}).
func (s *ExternalKeysService) Update(ctx context.Context, externalKeyID string, p ExternalKeyUpdateParams, opts ...option.RequestOption) (*ExternalKey, error) {
	return s.at(externalKeyID).update(ctx, p, opts)
}

// List iterates over the external keys, newest first (cursor scheme).
func (s *ExternalKeysService) List(ctx context.Context, p CursorListParams, opts ...option.RequestOption) iter.Seq2[ExternalKey, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Delete deletes an external key no workspace references.
func (s *ExternalKeysService) Delete(ctx context.Context, externalKeyID string, opts ...option.RequestOption) (*ExternalKeyDeleted, error) {
	return as[ExternalKeyDeleted](s.at(externalKeyID)).delete(ctx, opts)
}

// Validate runs an encrypt/decrypt round trip with the key (POST
// …/{external_key_id}/validate; waits up to 30 s). Safe to resend.
func (s *ExternalKeysService) Validate(ctx context.Context, externalKeyID string, opts ...option.RequestOption) (*ExternalKeyValidation, error) {
	return as[ExternalKeyValidation](s.at(externalKeyID)).action(ctx, "/validate", nil, transport.Safe, opts)
}
