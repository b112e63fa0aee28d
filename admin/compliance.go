package admin

import (
	"context"
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/option"
)

// ComplianceSettingsService reads and sets the organization's compliance
// settings (/v1/organizations/compliance_settings; admin key).
type ComplianceSettingsService struct{ c *Client }

// The compliance states.
const (
	ComplianceEnabled  = "enabled"
	ComplianceDisabled = "disabled"
)

// ComplianceSettings is the singleton record (the wire type
// "compliance_settings").
//
//mms:json type=compliance_settings
type ComplianceSettings struct {
	// State is {type: "enabled" | "disabled"}.
	State TypeOnly `json:"state"`
	// AccessTransparency is {type: "enabled" | "disabled"}, read-only;
	// returned only with BetaExternalStorage where Access Transparency is
	// available.
	AccessTransparency *TypeOnly `json:"access_transparency,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// ComplianceSettingsUpdateParams are the parameters of
// [ComplianceSettingsService.Update].
//
//mms:json
type ComplianceSettingsUpdateParams struct {
	// State is ComplianceEnabled or ComplianceDisabled, sent in the
	// object form. Required.
	State TypeOnly `json:"state"`
}

// Validate reports a state missing or other than enabled and disabled.
func (p ComplianceSettingsUpdateParams) Validate() error {
	if err := required("state.type", p.State.Type); err != nil {
		return err
	}
	return oneOf("state.type", p.State.Type, ComplianceEnabled, ComplianceDisabled)
}

// Get reads the settings (GET /v1/organizations/compliance_settings).
func (s *ComplianceSettingsService) Get(ctx context.Context, opts ...option.RequestOption) (*ComplianceSettings, error) {
	return ep[ComplianceSettings](s.c, adminbridge.AdminKey, "/compliance_settings").get(ctx, opts)
}

// Update sets the state (POST /v1/organizations/compliance_settings);
// setting the current value succeeds unchanged.
func (s *ComplianceSettingsService) Update(ctx context.Context, p ComplianceSettingsUpdateParams, opts ...option.RequestOption) (*ComplianceSettings, error) {
	return ep[ComplianceSettings](s.c, adminbridge.AdminKey, "/compliance_settings").update(ctx, p, opts)
}
