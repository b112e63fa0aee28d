package admin

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"strings"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// TelemetryDestinationsService manages OpenTelemetry export destinations
// (/v1/organizations/telemetry_destinations, beta
// telemetry-destinations-2026-08-11; admin key).
type TelemetryDestinationsService struct {
	c *Client
	// Workspaces manages the workspace list of include and exclude
	// destinations.
	Workspaces *TelemetryDestinationWorkspacesService
}

// The workspace selections of a destination.
const (
	TelemetryWorkspacesAll     = "all"
	TelemetryWorkspacesInclude = "include"
	TelemetryWorkspacesExclude = "exclude"
)

// The content modes of exported traces.
const (
	TraceContentMetadataOnly = "metadata_only"
	TraceContent             = "content"
)

// TelemetryWorkspaces selects the workspaces whose telemetry a
// destination receives: every one (all), only the listed ones (include)
// or all but the listed ones (exclude).
//
//mms:json
type TelemetryWorkspaces struct {
	// Type is TelemetryWorkspacesAll, …Include or …Exclude.
	Type string `json:"type"`
	// WorkspaceIDs are the listed workspaces (include and exclude only; at
	// most 1,000).
	WorkspaceIDs []string `json:"workspace_ids,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TelemetryTraces configures trace export.
//
//mms:json
type TelemetryTraces struct {
	// Enabled turns trace export on or off; nil keeps the default.
	Enabled *bool `json:"enabled,omitzero"`
	// EndpointURL sends traces elsewhere than the destination's URL.
	EndpointURL string `json:"endpoint_url,omitzero"`
	// ContentMode is TraceContentMetadataOnly or TraceContent.
	ContentMode string `json:"content_mode,omitzero"`
	// MaxContentBytes caps the content exported per span (positive).
	MaxContentBytes *int64 `json:"max_content_bytes,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TelemetryState is a destination's state: {type: "enabled"} or {type:
// "disabled", reason}.
//
//mms:json
type TelemetryState struct {
	// Type is "enabled" or "disabled".
	Type string `json:"type"`
	// Reason says why a destination is disabled.
	Reason *string `json:"reason,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// DeliveryHealth is how delivery to a destination has gone.
//
//mms:json
type DeliveryHealth struct {
	// LastSuccessAt is the last delivery that worked; nil for none.
	LastSuccessAt *time.Time `json:"last_success_at"`
	// LastError and LastErrorAt describe the last failure; nil for none.
	LastError   *string    `json:"last_error"`
	LastErrorAt *time.Time `json:"last_error_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TelemetryDestination is a destination's record (the wire type
// "telemetry_destination"). Header values are never returned.
//
//mms:json type=telemetry_destination
type TelemetryDestination struct {
	// ID identifies the destination.
	ID string `json:"id"`
	// DisplayName is its label; nil for none.
	DisplayName *string `json:"display_name"`
	// EndpointURL is the OTLP endpoint.
	EndpointURL string `json:"endpoint_url"`
	// HeaderNames are the names of the headers sent with each export.
	HeaderNames []string `json:"header_names"`
	// Traces is the trace export configuration.
	Traces *TelemetryTraces `json:"traces"`
	// Workspaces selects the workspaces exported.
	Workspaces TelemetryWorkspaces `json:"workspaces"`
	// State is enabled, or disabled with a reason.
	State TelemetryState `json:"state"`
	// DeliveryHealth is how delivery has gone.
	DeliveryHealth *DeliveryHealth `json:"delivery_health"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TelemetryDestinationDeleted is the answer to
// [TelemetryDestinationsService.Delete].
//
//mms:json type=telemetry_destination_deleted
type TelemetryDestinationDeleted struct {
	// ID is the deleted destination's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TelemetryDestinationParams are the parameters of
// [TelemetryDestinationsService.Create] (EndpointURL and Workspaces
// required) and [TelemetryDestinationsService.Update] (at least one
// field; omitted fields are kept, and changing the endpoint's host or port
// drops the registered headers).
//
//mms:json
type TelemetryDestinationParams struct {
	// EndpointURL is the OTLP endpoint (an absolute http or https URL).
	EndpointURL string `json:"endpoint_url,omitzero"`
	// Workspaces selects the workspaces exported.
	Workspaces *TelemetryWorkspaces `json:"workspaces,omitzero"`
	// DisplayName labels the destination (at most 255 characters).
	DisplayName string `json:"display_name,omitzero"`
	// Headers are sent with each export (e.g. an authorization header);
	// their values are secrets, never returned nor printed.
	Headers map[string]mms.Secret `json:"headers,omitzero"`
	// Traces configures trace export.
	Traces *TelemetryTraces `json:"traces,omitzero"`
}

// validateEndpointURL reports a URL that is not absolute http(s).
func validateEndpointURL(field, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return invalid(field, "must be an absolute http or https URL")
	}
	return nil
}

func (p TelemetryDestinationParams) validate(create bool) error {
	if create {
		if err := required("endpoint_url", p.EndpointURL); err != nil {
			return err
		}
		if p.Workspaces == nil {
			return invalid("workspaces", "is required")
		}
	} else if p.EndpointURL == "" && p.Workspaces == nil && p.DisplayName == "" && p.Headers == nil && p.Traces == nil {
		return invalid("endpoint_url", "an update must change at least one field")
	}
	if p.EndpointURL != "" {
		if err := validateEndpointURL("endpoint_url", p.EndpointURL); err != nil {
			return err
		}
	}
	if w := p.Workspaces; w != nil {
		if err := required("workspaces.type", w.Type); err != nil {
			return err
		}
		if err := oneOf("workspaces.type", w.Type, TelemetryWorkspacesAll, TelemetryWorkspacesInclude, TelemetryWorkspacesExclude); err != nil {
			return err
		}
		if w.Type == TelemetryWorkspacesAll && len(w.WorkspaceIDs) > 0 {
			return invalid("workspaces.workspace_ids", "must be empty when type is all")
		}
		if err := maxItems("workspaces.workspace_ids", len(w.WorkspaceIDs), 1000); err != nil {
			return err
		}
	}
	if err := maxLen("display_name", p.DisplayName, 255); err != nil {
		return err
	}
	for _, k := range sortedKeys(p.Headers) {
		if k == "" || strings.ContainsAny(k, " \t\r\n:") {
			return invalid("headers", "%q is not a header name", k)
		}
	}
	if t := p.Traces; t != nil {
		if t.EndpointURL != "" {
			if err := validateEndpointURL("traces.endpoint_url", t.EndpointURL); err != nil {
				return err
			}
		}
		if err := oneOf("traces.content_mode", t.ContentMode, TraceContentMetadataOnly, TraceContent); err != nil {
			return err
		}
		if t.MaxContentBytes != nil && *t.MaxContentBytes < 1 {
			return invalid("traces.max_content_bytes", "must be positive, got %d", *t.MaxContentBytes)
		}
	}
	return nil
}

// Validate applies the update's rules: at least one field, and the rules
// of each field given (URLs absolute http or https, a known workspaces
// type without ids for all and at most 1,000 ids, a display name of at
// most 255 characters, header names without spaces or colons, a known
// content mode, a positive max_content_bytes). Create also requires
// EndpointURL and Workspaces.
func (p TelemetryDestinationParams) Validate() error { return p.validate(false) }

// TelemetryDestinationListParams are the parameters of
// [TelemetryDestinationsService.List] (cursor scheme).
type TelemetryDestinationListParams struct {
	// Limit is the page size, 1–1000; 0 leaves it to the service.
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page mms.Cursor
	// WorkspaceIDs lists only destinations exporting these workspaces.
	WorkspaceIDs []string
}

// Validate reports Limit outside 1–1000.
func (p TelemetryDestinationListParams) Validate() error { return validateLimit(p.Limit, 1000) }

func (p TelemetryDestinationListParams) listArgs() listArgs {
	a := cursorArgs(p.Limit, p.Page)
	addArray(a.query, "workspace_ids", p.WorkspaceIDs)
	return a
}

// TelemetryTestResult is the answer to [TelemetryDestinationsService.Test].
//
//mms:json
type TelemetryTestResult struct {
	// Result is {type: "success"} or {type: "failure", error}.
	Result TelemetryTestOutcome `json:"result"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TelemetryTestOutcome is a test's outcome.
//
//mms:json
type TelemetryTestOutcome struct {
	// Type is "success" or "failure".
	Type string `json:"type"`
	// Error says why it failed.
	Error *string `json:"error,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s *TelemetryDestinationsService) all() endpoint[TelemetryDestination] {
	return ep[TelemetryDestination](s.c, adminbridge.AdminKey, "/telemetry_destinations").beta(wire.BetaTelemetryDestinations)
}

func (s *TelemetryDestinationsService) at(id string) endpoint[TelemetryDestination] {
	return s.all().id("destination_id", id)
}

// Create creates a destination, enabled (at most 10 per organization).
// Creating: after an unknown outcome the error matches
// mms.ErrMaybeApplied.
func (s *TelemetryDestinationsService) Create(ctx context.Context, p TelemetryDestinationParams, opts ...option.RequestOption) (*TelemetryDestination, error) {
	if err := p.validate(true); err != nil {
		return nil, err
	}
	return s.all().post(ctx, p, opts)
}

// Get retrieves a destination.
func (s *TelemetryDestinationsService) Get(ctx context.Context, destinationID string, opts ...option.RequestOption) (*TelemetryDestination, error) {
	return s.at(destinationID).get(ctx, opts)
}

// Update changes the fields p holds; a concurrent change answers 409
// conflict_error.
func (s *TelemetryDestinationsService) Update(ctx context.Context, destinationID string, p TelemetryDestinationParams, opts ...option.RequestOption) (*TelemetryDestination, error) {
	return s.at(destinationID).update(ctx, p, opts)
}

// List iterates over the destinations (cursor scheme).
func (s *TelemetryDestinationsService) List(ctx context.Context, p TelemetryDestinationListParams, opts ...option.RequestOption) iter.Seq2[TelemetryDestination, error] {
	return s.all().list(ctx, adminbridge.Cursor, p, opts)
}

// Delete deletes a destination permanently.
func (s *TelemetryDestinationsService) Delete(ctx context.Context, destinationID string, opts ...option.RequestOption) (*TelemetryDestinationDeleted, error) {
	return as[TelemetryDestinationDeleted](s.at(destinationID)).delete(ctx, opts)
}

// Test sends one test span, once, without retries on the service's side;
// at least 10 s must pass between tests (else 429). A failed delivery is
// an answer (Result.Type "failure"), not an error. It is not resent after
// an unknown outcome (the error matches mms.ErrMaybeApplied).
func (s *TelemetryDestinationsService) Test(ctx context.Context, destinationID string, opts ...option.RequestOption) (*TelemetryTestResult, error) {
	return as[TelemetryTestResult](s.at(destinationID)).action(ctx, "/test", nil, transport.Creating, opts)
}

// TelemetryDestinationWorkspacesService manages the workspace list of an
// include or exclude destination (…/telemetry_destinations/{id}/workspaces;
// an all destination answers 400).
type TelemetryDestinationWorkspacesService struct{ c *Client }

// TelemetryDestinationWorkspace is one workspace of a destination's list
// (the wire type "telemetry_destination_workspace").
//
//mms:json type=telemetry_destination_workspace
type TelemetryDestinationWorkspace struct {
	// WorkspaceID is the workspace.
	WorkspaceID string `json:"workspace_id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// TelemetryDestinationWorkspaceDeleted is the answer to
// [TelemetryDestinationWorkspacesService.Remove].
//
//mms:json type=telemetry_destination_workspace_deleted
type TelemetryDestinationWorkspaceDeleted struct {
	// ID is the removed workspace's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s *TelemetryDestinationWorkspacesService) all(destinationID string) endpoint[TelemetryDestinationWorkspace] {
	return ep[TelemetryDestinationWorkspace](s.c, adminbridge.AdminKey, "/telemetry_destinations").beta(wire.BetaTelemetryDestinations).
		id("destination_id", destinationID).sub("/workspaces")
}

// List iterates over the destination's workspaces (cursor scheme).
func (s *TelemetryDestinationWorkspacesService) List(ctx context.Context, destinationID string, p CursorListParams, opts ...option.RequestOption) iter.Seq2[TelemetryDestinationWorkspace, error] {
	return s.all(destinationID).list(ctx, adminbridge.Cursor, p, opts)
}

// Add adds a workspace to the list (at most 1,000); idempotent.
func (s *TelemetryDestinationWorkspacesService) Add(ctx context.Context, destinationID, workspaceID string, opts ...option.RequestOption) (*TelemetryDestinationWorkspace, error) {
	return s.all(destinationID).id("workspace_id", workspaceID).update(ctx, nil, opts)
}

// Remove removes a workspace from the list; one not in it answers 404.
func (s *TelemetryDestinationWorkspacesService) Remove(ctx context.Context, destinationID, workspaceID string, opts ...option.RequestOption) (*TelemetryDestinationWorkspaceDeleted, error) {
	return as[TelemetryDestinationWorkspaceDeleted](s.all(destinationID).id("workspace_id", workspaceID)).delete(ctx, opts)
}
