package admin

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// ExternalStorageService registers and manages customer-owned buckets the
// organization's data is kept in (/v1/organizations/external_storage,
// beta efs-2026-10-01; admin key).
type ExternalStorageService struct{ c *Client }

// ExternalStorage is a registered bucket (the wire type
// "external_storage").
//
//mms:json type=external_storage
type ExternalStorage struct {
	// ID identifies it ("estrg_…").
	ID string `json:"id"`
	// DisplayName is its label; nil for none.
	DisplayName *string `json:"display_name"`
	// ProviderConfig is the bucket.
	ProviderConfig StorageProvider `json:"provider_config"`
	// Status is where it stands.
	Status StorageStatus `json:"status"`
	// SetupTemplateVersion is the version of the setup template the
	// bucket's permissions were made with; nil when unknown.
	SetupTemplateVersion *string `json:"setup_template_version"`
	// UserProfileID is the user profile it belongs to; nil for the
	// organization.
	UserProfileID *string `json:"user_profile_id"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ExternalStorageDeleted is the answer to [ExternalStorageService.Delete].
//
//mms:json type=external_storage_deleted
type ExternalStorageDeleted struct {
	// ID is the deleted storage's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A StorageProvider is a bucket's provider and place: [AWSStorage],
// [GCPStorage] or [UnknownStorageProvider].
type StorageProvider interface {
	json.Marshaler
	isStorageProvider()
}

var storageProviderUnion = codec.NewUnion[StorageProvider]("StorageProvider", UnknownStorageProvider{}).
	Add("aws", AWSStorage{}).
	Add("gcp", GCPStorage{})

// AWSStorage is an S3 bucket (the wire type "aws").
type AWSStorage struct {
	// AccountID is the 12-digit AWS account.
	AccountID string `json:"account_id"`
	// BucketName names the bucket (3–63 characters).
	BucketName string `json:"bucket_name"`
	// Region is the bucket's region ("us-east-1").
	Region string `json:"region"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GCPStorage is a Cloud Storage bucket (the wire type "gcp").
type GCPStorage struct {
	// ProjectNumber is the Google Cloud project number (digits).
	ProjectNumber string `json:"project_number"`
	// BucketName names the bucket (3–63 characters).
	BucketName string `json:"bucket_name"`
	// Region is the bucket's location.
	Region string `json:"region"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownStorageProvider keeps a provider this SDK version cannot name.
type UnknownStorageProvider struct {
	Type string
	Raw  json.RawMessage
}

// A StorageStatus is a storage's state: [StoragePendingConfiguration],
// [StorageAvailable], [StorageActive], [StorageDraining] or
// [UnknownStorageStatus].
type StorageStatus interface {
	json.Marshaler
	isStorageStatus()
}

var storageStatusUnion = codec.NewUnion[StorageStatus]("StorageStatus", UnknownStorageStatus{}).
	Add("pending_configuration", StoragePendingConfiguration{}).
	Add("available", StorageAvailable{}).
	Add("active", StorageActive{}).
	Add("draining", StorageDraining{})

// StoragePendingConfiguration is registered storage not yet verified (the
// wire type "pending_configuration"); Activate verifies it.
type StoragePendingConfiguration struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// StorageAvailable is verified storage no workspace uses yet (the wire
// type "available").
type StorageAvailable struct {
	// Healthy is the last check's result; LastCheckedAt its time.
	Healthy       bool       `json:"healthy"`
	LastCheckedAt *time.Time `json:"last_checked_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// StorageActive is storage in use (the wire type "active").
type StorageActive struct {
	// Healthy is the last check's result; LastCheckedAt its time.
	Healthy       bool       `json:"healthy"`
	LastCheckedAt *time.Time `json:"last_checked_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// StorageDraining is storage being emptied before removal (the wire type
// "draining").
type StorageDraining struct {
	// Healthy is the last check's result; LastCheckedAt its time.
	Healthy       bool       `json:"healthy"`
	LastCheckedAt *time.Time `json:"last_checked_at"`
	// RemovalStarted reports that a delete started its removal; delete
	// again later to finish it.
	RemovalStarted bool `json:"removal_started"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownStorageStatus keeps a status this SDK version cannot name.
type UnknownStorageStatus struct {
	Type string
	Raw  json.RawMessage
}

// ExternalStorageRegisterParams are the parameters of
// [ExternalStorageService.Register].
//
//mms:json
type ExternalStorageRegisterParams struct {
	// ProviderConfig is the bucket: an [AWSStorage] or a [GCPStorage].
	// Required.
	ProviderConfig StorageProvider `json:"provider_config"`
	// DisplayName labels it (at most 255 characters).
	DisplayName string `json:"display_name,omitzero"`
	// UserProfileID registers it for a user profile.
	UserProfileID string `json:"user_profile_id,omitzero"`
}

// validateBucket checks a bucket's name and region.
func validateBucket(name, region string) error {
	if err := required("provider_config.bucket_name", name); err != nil {
		return err
	}
	if n := len(name); n < 3 || n > 63 {
		return invalid("provider_config.bucket_name", "must be 3 to 63 characters, got %d", n)
	}
	return required("provider_config.region", region)
}

// Validate reports a missing provider, an AWS account that is not 12
// digits, a project number that is not digits, a bucket name outside 3–63
// characters, a missing region, or a display name over 255 characters.
func (p ExternalStorageRegisterParams) Validate() error {
	switch pc := p.ProviderConfig.(type) {
	case nil:
		return invalid("provider_config", "is required")
	case AWSStorage:
		if len(pc.AccountID) != 12 || strings.Trim(pc.AccountID, "0123456789") != "" {
			return invalid("provider_config.account_id", "must be the 12-digit AWS account id, got %q", pc.AccountID)
		}
		if err := validateBucket(pc.BucketName, pc.Region); err != nil {
			return err
		}
	case GCPStorage:
		if pc.ProjectNumber == "" || strings.Trim(pc.ProjectNumber, "0123456789") != "" {
			return invalid("provider_config.project_number", "must be the project's number (digits), got %q", pc.ProjectNumber)
		}
		if err := validateBucket(pc.BucketName, pc.Region); err != nil {
			return err
		}
	default:
		return invalid("provider_config", "must be an AWSStorage or a GCPStorage")
	}
	return maxLen("display_name", p.DisplayName, 255)
}

// ExternalStorageUpdateParams are the parameters of
// [ExternalStorageService.Update].
//
//mms:json
type ExternalStorageUpdateParams struct {
	// DisplayName sets (mms.Set, at most 255 characters) or clears
	// (mms.Clear) the label. Required: an update that does neither is
	// refused.
	DisplayName mms.Update[string] `json:"display_name,omitzero"`
}

// Validate reports an update that neither sets nor clears the name, or a
// name over 255 characters.
func (p ExternalStorageUpdateParams) Validate() error {
	if p.DisplayName.IsZero() {
		return invalid("display_name", "must be set (mms.Set) or cleared (mms.Clear)")
	}
	v, _ := p.DisplayName.Value()
	return maxLen("display_name", v, 255)
}

// ExternalStorageListParams are the parameters of
// [ExternalStorageService.List] (cursor scheme, newest first).
type ExternalStorageListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// UserProfileIDs lists only these user profiles' storage.
	UserProfileIDs []string
}

// Validate reports Limit outside 1–1000 or an empty user profile id.
func (p ExternalStorageListParams) Validate() error {
	if err := validateLimit(p.Limit, 1000); err != nil {
		return err
	}
	for i, id := range p.UserProfileIDs {
		if id == "" {
			return invalid("user_profile_ids["+itoa(i)+"]", "must not be empty")
		}
	}
	return nil
}

func (p ExternalStorageListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	addArray(a.query, "user_profile_ids", p.UserProfileIDs)
	return a
}

func (s *ExternalStorageService) all() endpoint[ExternalStorage] {
	return ep[ExternalStorage](s.c, adminbridge.AdminKey, "/external_storage").beta(wire.BetaExternalStorage)
}

func (s *ExternalStorageService) at(id string) endpoint[ExternalStorage] {
	return s.all().id("external_storage_id", id)
}

// Register registers a bucket, saved as pending_configuration until
// Activate verifies it (POST /v1/organizations/external_storage).
// Creating: after an unknown outcome the error matches
// mms.ErrMaybeApplied.
func (s *ExternalStorageService) Register(ctx context.Context, p ExternalStorageRegisterParams, opts ...option.RequestOption) (*ExternalStorage, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a storage.
func (s *ExternalStorageService) Get(ctx context.Context, storageID string, opts ...option.RequestOption) (*ExternalStorage, error) {
	return s.at(storageID).get(ctx, opts)
}

// Update renames a storage, or clears its name.
func (s *ExternalStorageService) Update(ctx context.Context, storageID string, p ExternalStorageUpdateParams, opts ...option.RequestOption) (*ExternalStorage, error) {
	return s.at(storageID).update(ctx, p, opts)
}

// List iterates over the storage, newest first (cursor scheme).
func (s *ExternalStorageService) List(ctx context.Context, p ExternalStorageListParams, opts ...option.RequestOption) iter.Seq2[ExternalStorage, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Delete removes a storage: at once when it is pending, available or was
// never attached and no workspace policy lists it; otherwise the service
// answers 400 saying what to do. On draining storage a 400 may mean the
// removal started (StorageDraining.RemovalStarted): delete again later.
func (s *ExternalStorageService) Delete(ctx context.Context, storageID string, opts ...option.RequestOption) (*ExternalStorageDeleted, error) {
	return as[ExternalStorageDeleted](s.at(storageID)).delete(ctx, opts)
}

// Activate verifies pending storage and makes it available; storage
// already available, active or draining is answered unchanged, so it is
// idempotent.
func (s *ExternalStorageService) Activate(ctx context.Context, storageID string, opts ...option.RequestOption) (*ExternalStorage, error) {
	return s.at(storageID).action(ctx, "/activate", nil, transport.Idempotent, opts)
}
