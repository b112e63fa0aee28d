package admin

import (
	"context"
	"encoding/json"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/option"
)

// OrganizationService reads the organization the credential belongs to
// (/v1/organizations/me). Reach it as c.Organization.
type OrganizationService struct{ c *Client }

// Organization is the organization record (the wire type "organization").
//
//mms:json type=organization
type Organization struct {
	// ID is the organization's id (a UUID).
	ID string `json:"id"`
	// Name is the organization's name.
	Name string `json:"name"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Get retrieves the credential's organization (GET /v1/organizations/me).
func (s *OrganizationService) Get(ctx context.Context, opts ...option.RequestOption) (*Organization, error) {
	return ep[Organization](s.c, adminbridge.AdminKey, "/me").get(ctx, opts)
}
