package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"regexp"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/option"
)

// WorkspacesService manages workspaces (/v1/organizations/workspaces;
// admin key), their members, service accounts and rate limits. Reach it as
// c.Workspaces.
type WorkspacesService struct {
	c *Client
	// Members manages the workspace's users.
	Members *WorkspaceMembersService
	// ServiceAccounts manages the workspace's service-account memberships
	// (OAuth org:admin only).
	ServiceAccounts *WorkspaceServiceAccountsService
	// RateLimits lists and sets the workspace's rate-limit overrides.
	RateLimits *WorkspaceRateLimitsService
}

// Workspace is a workspace's record (the wire type "workspace").
//
//mms:json type=workspace
type Workspace struct {
	// ID identifies the workspace ("wrkspc_…").
	ID string `json:"id"`
	// Name is the workspace's name.
	Name string `json:"name"`
	// DisplayColor is the Console's hex colour.
	DisplayColor string `json:"display_color"`
	// Tags are the caller's labels.
	Tags map[string]string `json:"tags"`
	// DataResidency is where the workspace's data lives and inference runs.
	DataResidency DataResidency `json:"data_residency"`
	// ExternalKeyID is the customer-managed key; nil for none.
	ExternalKeyID *string `json:"external_key_id"`
	// UserProfileID is the profile every inference request must name; nil
	// for none.
	UserProfileID *string `json:"user_profile_id"`
	// CompartmentID is the encryption compartment id.
	CompartmentID string `json:"compartment_id"`
	// InferenceDataPrivacy is returned only with BetaExternalStorage.
	InferenceDataPrivacy *InferenceDataPrivacy `json:"inference_data_privacy,omitzero"`
	// CreatedAt is when the workspace was made.
	CreatedAt time.Time `json:"created_at"`
	// ArchivedAt is when it was archived; nil while it is not.
	ArchivedAt *time.Time `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DataResidency is a workspace's data residency.
//
//mms:json
type DataResidency struct {
	// WorkspaceGeo is where data is stored ("us"; immutable, create only).
	WorkspaceGeo string `json:"workspace_geo,omitzero"`
	// AllowedInferenceGeos is "unrestricted" or a list of geos.
	AllowedInferenceGeos *InferenceGeos `json:"allowed_inference_geos,omitzero"`
	// DefaultInferenceGeo is "global" or "us".
	DefaultInferenceGeo string `json:"default_inference_geo,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// InferenceGeos is the geos inference may run in: every geo
// (Unrestricted, the wire string "unrestricted") or the listed ones ("global",
// "us").
type InferenceGeos struct {
	// Unrestricted allows every geo; Geos is then empty.
	Unrestricted bool
	// Geos are the allowed geos.
	Geos []string
}

// MarshalJSON writes "unrestricted" or the array of geos.
func (g InferenceGeos) MarshalJSON() ([]byte, error) {
	if g.Unrestricted {
		return []byte(`"unrestricted"`), nil
	}
	if g.Geos == nil {
		return []byte(`[]`), nil
	}
	return json.Marshal(g.Geos)
}

// UnmarshalJSON reads "unrestricted" or an array of geos.
func (g *InferenceGeos) UnmarshalJSON(data []byte) error {
	if s := strings.TrimSpace(string(data)); strings.HasPrefix(s, `"`) {
		var v string
		if err := json.Unmarshal(data, &v); err != nil {
			return err
		}
		if v != "unrestricted" {
			return fmt.Errorf("allowed_inference_geos: %q is neither \"unrestricted\" nor an array", v)
		}
		*g = InferenceGeos{Unrestricted: true}
		return nil
	}
	*g = InferenceGeos{}
	return json.Unmarshal(data, &g.Geos)
}

var inferenceGeos = []string{"global", "us"}

// validate checks the residency a create or update sends.
func (d *DataResidency) validate(update bool) error {
	if d == nil {
		return nil
	}
	if update && d.WorkspaceGeo != "" {
		return invalid("data_residency.workspace_geo", "cannot be changed after creation")
	}
	if err := oneOf("data_residency.workspace_geo", d.WorkspaceGeo, "us"); err != nil {
		return err
	}
	if err := oneOf("data_residency.default_inference_geo", d.DefaultInferenceGeo, inferenceGeos...); err != nil {
		return err
	}
	g := d.AllowedInferenceGeos
	if g == nil {
		return nil
	}
	if g.Unrestricted && len(g.Geos) > 0 {
		return invalid("data_residency.allowed_inference_geos", "is either unrestricted or a list of geos, not both")
	}
	if !g.Unrestricted {
		if len(g.Geos) == 0 {
			return invalid("data_residency.allowed_inference_geos", "must list at least one geo or be unrestricted")
		}
		if err := eachOneOf("data_residency.allowed_inference_geos", g.Geos, inferenceGeos...); err != nil {
			return err
		}
		if def := d.DefaultInferenceGeo; def != "" && !contains(g.Geos, def) {
			return invalid("data_residency.default_inference_geo", "must be one of the allowed inference geos %q, got %q", g.Geos, def)
		}
	}
	return nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

var hexColor = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// validateWorkspaceFields checks the fields create and update share.
func validateWorkspaceFields(color string, tags map[string]string, d *DataResidency, update bool) error {
	if color != "" && !hexColor.MatchString(color) {
		return invalid("display_color", "must be a hex colour such as #6C5BB9, got %q", color)
	}
	for _, k := range sortedKeys(tags) {
		if strings.HasPrefix(strings.ToLower(k), "vendor") {
			return invalid("tags."+k, "keys may not begin with \"vendor\"")
		}
		if k == "" {
			return invalid("tags", "keys must not be empty")
		}
	}
	return d.validate(update)
}

// WorkspaceCreateParams are the parameters of [WorkspacesService.Create].
//
//mms:json
type WorkspaceCreateParams struct {
	// Name names the workspace. Required.
	Name string `json:"name"`
	// DisplayColor is a hex colour ("#RRGGBB").
	DisplayColor string `json:"display_color,omitzero"`
	// Tags label the workspace; keys may not begin with "vendor".
	Tags map[string]string `json:"tags,omitzero"`
	// DataResidency sets where data lives and inference runs.
	DataResidency *DataResidency `json:"data_residency,omitzero"`
	// ExternalKeyID attaches a customer-managed key (write-once).
	ExternalKeyID string `json:"external_key_id,omitzero"`
	// UserProfileID binds the workspace to a user profile (write-once).
	UserProfileID string `json:"user_profile_id,omitzero"`
	// InferenceDataPrivacy sets where retained data goes (beta; sent with
	// BetaExternalStorage).
	InferenceDataPrivacy *InferenceDataPrivacy `json:"inference_data_privacy,omitzero"`
}

// Validate reports a missing name, a colour that is not #RRGGBB, a tag key
// beginning with "vendor", or a residency rule broken (geo "us" only;
// inference geos "global"/"us"; the default among the allowed).
func (p WorkspaceCreateParams) Validate() error {
	if err := required("name", p.Name); err != nil {
		return err
	}
	if err := p.InferenceDataPrivacy.validate(); err != nil {
		return err
	}
	return validateWorkspaceFields(p.DisplayColor, p.Tags, p.DataResidency, false)
}

// WorkspaceUpdateParams are the parameters of [WorkspacesService.Update];
// zero fields are unchanged.
//
//mms:json
type WorkspaceUpdateParams struct {
	// Name renames the workspace.
	Name string `json:"name,omitzero"`
	// DisplayColor is a hex colour ("#RRGGBB").
	DisplayColor string `json:"display_color,omitzero"`
	// Tags replace the labels.
	Tags map[string]string `json:"tags,omitzero"`
	// DataResidency changes inference geos (not workspace_geo).
	DataResidency *DataResidency `json:"data_residency,omitzero"`
	// ExternalKeyID attaches a key to a workspace without one.
	ExternalKeyID string `json:"external_key_id,omitzero"`
	// UserProfileID binds a workspace without a profile.
	UserProfileID string `json:"user_profile_id,omitzero"`
	// InferenceDataPrivacy changes where retained data goes (beta; sent
	// with BetaExternalStorage).
	InferenceDataPrivacy *InferenceDataPrivacy `json:"inference_data_privacy,omitzero"`
}

// Validate reports the rules of create but the name, and a workspace_geo.
func (p WorkspaceUpdateParams) Validate() error {
	if err := p.InferenceDataPrivacy.validate(); err != nil {
		return err
	}
	return validateWorkspaceFields(p.DisplayColor, p.Tags, p.DataResidency, true)
}

// WorkspaceListParams are the parameters of [WorkspacesService.List] (id
// scheme).
type WorkspaceListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service (20).
	Limit int
	// AfterID and BeforeID start the list after or before a workspace.
	AfterID, BeforeID string
	// IncludeArchived and IncludeDefault add archived workspaces and the
	// default workspace.
	IncludeArchived, IncludeDefault bool
	// IDs lists only these workspaces (at most 100).
	IDs []string
}

// Validate reports Limit outside 1–1000, AfterID with BeforeID, or more
// than 100 IDs.
func (p WorkspaceListParams) Validate() error {
	if err := validateIDList(p.Limit, p.AfterID, p.BeforeID); err != nil {
		return err
	}
	return maxItems("ids", len(p.IDs), 100)
}

func (p WorkspaceListParams) listArgs() listArgs {
	a := idArgs(p.Limit, p.AfterID, p.BeforeID)
	setBool(a.query, "include_archived", p.IncludeArchived)
	setBool(a.query, "include_default", p.IncludeDefault)
	addArray(a.query, "ids", p.IDs)
	return a
}

func (s *WorkspacesService) all() endpoint[Workspace] {
	return ep[Workspace](s.c, adminbridge.AdminKey, "/workspaces")
}

func (s *WorkspacesService) at(id string) endpoint[Workspace] {
	return s.all().id("workspace_id", id)
}

// Create creates a workspace (POST /v1/organizations/workspaces).
// Creating: retried only when provably not applied; after an unknown
// outcome (or a 503 workspace_created_incomplete) the error matches
// mms.ErrMaybeApplied and the create is not sent again: list before
// creating anew.
func (s *WorkspacesService) Create(ctx context.Context, p WorkspaceCreateParams, opts ...option.RequestOption) (*Workspace, error) {
	return privacyBeta(s.all(), p.InferenceDataPrivacy).post(ctx, p, opts)
}

// Get retrieves a workspace (GET /v1/organizations/workspaces/{workspace_id}).
func (s *WorkspacesService) Get(ctx context.Context, workspaceID string, opts ...option.RequestOption) (*Workspace, error) {
	return s.at(workspaceID).get(ctx, opts)
}

// Update changes a workspace (POST /v1/organizations/workspaces/{workspace_id}).
func (s *WorkspacesService) Update(ctx context.Context, workspaceID string, p WorkspaceUpdateParams, opts ...option.RequestOption) (*Workspace, error) {
	return privacyBeta(s.at(workspaceID), p.InferenceDataPrivacy).update(ctx, p, opts)
}

// List iterates over the workspaces (GET /v1/organizations/workspaces, id
// scheme).
func (s *WorkspacesService) List(ctx context.Context, p WorkspaceListParams, opts ...option.RequestOption) iter.Seq2[Workspace, error] {
	return s.all().list(ctx, adminbridge.ID, p, opts)
}

// ListPage fetches one page of workspaces.
func (s *WorkspacesService) ListPage(ctx context.Context, p WorkspaceListParams, opts ...option.RequestOption) (*mms.Page[Workspace], error) {
	return s.all().listPage(ctx, adminbridge.ID, p, opts)
}

// Archive archives a workspace (POST
// /v1/organizations/workspaces/{workspace_id}/archive); idempotent.
func (s *WorkspacesService) Archive(ctx context.Context, workspaceID string, opts ...option.RequestOption) (*Workspace, error) {
	return s.at(workspaceID).archive(ctx, opts)
}
