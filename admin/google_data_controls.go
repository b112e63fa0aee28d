package admin

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// A Google Cloud project's data controls (organization.md §19.1), beta
// google-managed-data-controls-2026-09-01.

// GoogleDataControlsService reads and sets the data controls the vendor
// applies to a Google Cloud project's managed traffic
// (/v1/organizations/providers/google/projects/{project_number}/data_controls,
// beta google-managed-data-controls-2026-09-01).
type GoogleDataControlsService struct{ c *Client }

// GoogleDataControls is a project's record (the wire type
// "google_managed_project_data_controls").
//
//mms:json type=google_managed_project_data_controls
type GoogleDataControls struct {
	// ProjectNumber is the Google Cloud project number.
	ProjectNumber string `json:"project_number"`
	// CMEK is the customer-managed encryption control.
	CMEK GoogleCMEK `json:"cmek"`
	// Storage is the customer-owned storage control.
	Storage GoogleStorage `json:"storage"`
	// UpdatedAt is when a control last changed.
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// A GoogleCMEK is the encryption control: [GoogleCMEKDisabled],
// [GoogleCMEKEnabled] or [UnknownGoogleCMEK].
type GoogleCMEK interface {
	json.Marshaler
	isGoogleCMEK()
}

var googleCMEKUnion = codec.NewUnion[GoogleCMEK]("GoogleCMEK", UnknownGoogleCMEK{}).
	Add("disabled", GoogleCMEKDisabled{}).
	Add("enabled", GoogleCMEKEnabled{})

// GoogleCMEKDisabled is the control off (the wire type "disabled").
type GoogleCMEKDisabled struct {
	// RetiredKeys are keys used before, as the service describes them.
	RetiredKeys []json.RawMessage `json:"retired_keys"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GoogleCMEKEnabled is the control on (the wire type "enabled").
type GoogleCMEKEnabled struct {
	// ExternalKeyIDs maps a region to its external key ("ekey_…").
	ExternalKeyIDs map[string]string `json:"external_key_ids"`
	// Status is each region's state, as the service describes it.
	Status map[string]json.RawMessage `json:"status"`
	// RetiredKeys are keys used before, as the service describes them.
	RetiredKeys []json.RawMessage `json:"retired_keys"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownGoogleCMEK keeps a control this SDK version cannot name.
type UnknownGoogleCMEK struct {
	Type string
	Raw  json.RawMessage
}

// A GoogleStorage is the storage control: [GoogleStorageDisabled],
// [GoogleStorageEnabled] or [UnknownGoogleStorage].
type GoogleStorage interface {
	json.Marshaler
	isGoogleStorage()
}

var googleStorageUnion = codec.NewUnion[GoogleStorage]("GoogleStorage", UnknownGoogleStorage{}).
	Add("disabled", GoogleStorageDisabled{}).
	Add("enabled", GoogleStorageEnabled{})

// GoogleStorageDisabled is the control off (the wire type "disabled").
type GoogleStorageDisabled struct {
	// RetiredBuckets are buckets used before, as the service describes them.
	RetiredBuckets []json.RawMessage `json:"retired_buckets"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// GoogleStorageEnabled is the control on (the wire type "enabled").
type GoogleStorageEnabled struct {
	// Buckets maps a region to its bucket.
	Buckets map[string]string `json:"buckets"`
	// Status is each region's state, as the service describes it.
	Status map[string]json.RawMessage `json:"status"`
	// RetiredBuckets are buckets used before, as the service describes them.
	RetiredBuckets []json.RawMessage `json:"retired_buckets"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownGoogleStorage keeps a control this SDK version cannot name.
type UnknownGoogleStorage struct {
	Type string
	Raw  json.RawMessage
}

// The states of a data control in an update.
const (
	ControlEnabled  = "enabled"
	ControlDisabled = "disabled"
)

// GoogleCMEKUpdate turns encryption on with keys per region, or off.
//
//mms:json
type GoogleCMEKUpdate struct {
	// Type is ControlEnabled or ControlDisabled. Required.
	Type string `json:"type"`
	// ExternalKeyIDs maps a region to an external key ("ekey_…"); only
	// when enabled, at least one. Regions left out are unchanged.
	ExternalKeyIDs map[string]string `json:"external_key_ids,omitzero"`
}

// GoogleStorageUpdate turns customer-owned storage on with buckets per
// region, or off.
//
//mms:json
type GoogleStorageUpdate struct {
	// Type is ControlEnabled or ControlDisabled. Required.
	Type string `json:"type"`
	// Buckets maps a region to a bucket; only when enabled, at least one.
	// Regions left out are unchanged.
	Buckets map[string]string `json:"buckets,omitzero"`
}

// GoogleDataControlsUpdateParams are the parameters of
// [GoogleDataControlsService.Update]; a control left nil is unchanged.
//
//mms:json
type GoogleDataControlsUpdateParams struct {
	// CMEK sets the encryption control.
	CMEK *GoogleCMEKUpdate `json:"cmek,omitzero"`
	// Storage sets the storage control.
	Storage *GoogleStorageUpdate `json:"storage,omitzero"`
}

// validateControl checks one control of an update: its type, and a
// non-empty region map (no empty region or value) exactly when enabled.
func validateControl(field, typ, mapName string, m map[string]string) error {
	if err := required(field+".type", typ); err != nil {
		return err
	}
	if err := oneOf(field+".type", typ, ControlEnabled, ControlDisabled); err != nil {
		return err
	}
	if typ == ControlDisabled {
		if len(m) > 0 {
			return invalid(field+"."+mapName, "must be empty when the control is disabled")
		}
		return nil
	}
	if len(m) == 0 {
		return invalid(field+"."+mapName, "must name at least one region when the control is enabled")
	}
	for _, k := range sortedKeys(m) {
		if strings.TrimSpace(k) == "" {
			return invalid(field+"."+mapName, "must not have an empty region")
		}
		if m[k] == "" {
			return invalid(field+"."+mapName+"["+k+"]", "must not be empty")
		}
	}
	return nil
}

// Validate reports an update naming no control, or a control with an
// unknown type, or with regions when disabled or none when enabled.
func (p GoogleDataControlsUpdateParams) Validate() error {
	if p.CMEK == nil && p.Storage == nil {
		return invalid("cmek", "an update must set cmek, storage or both")
	}
	if p.CMEK != nil {
		if err := validateControl("cmek", p.CMEK.Type, "external_key_ids", p.CMEK.ExternalKeyIDs); err != nil {
			return err
		}
	}
	if p.Storage != nil {
		return validateControl("storage", p.Storage.Type, "buckets", p.Storage.Buckets)
	}
	return nil
}

// project is the data-controls path of a project; its number must be
// digits.
func (s *GoogleDataControlsService) project(cred adminbridge.Credential, projectNumber string) endpoint[GoogleDataControls] {
	e := ep[GoogleDataControls](s.c, cred, "/providers/google/projects").beta(wire.BetaGoogleDataControls)
	if projectNumber != "" && strings.Trim(projectNumber, "0123456789") != "" {
		e.err = invalid("project_number", "must be the project's number (digits), got %q", projectNumber)
		return e
	}
	return e.id("project_number", projectNumber).sub("/data_controls")
}

// Get reads a project's data controls (admin key).
func (s *GoogleDataControlsService) Get(ctx context.Context, projectNumber string, opts ...option.RequestOption) (*GoogleDataControls, error) {
	return s.project(adminbridge.AdminKey, projectNumber).get(ctx, opts)
}

// Update sets the controls the params name; omitted controls and regions
// are unchanged. The organization must have proved it owns the project,
// and one organization at a time controls a project. It needs a user or
// service-account credential (an OAuth token with org:admin, or an
// organization-scoped key of an admin or owner): the service refuses a
// plain admin key (403), so none is refused here.
func (s *GoogleDataControlsService) Update(ctx context.Context, projectNumber string, p GoogleDataControlsUpdateParams, opts ...option.RequestOption) (*GoogleDataControls, error) {
	return s.project(adminbridge.AnyKey, projectNumber).update(ctx, p, opts)
}
