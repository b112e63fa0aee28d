package admin

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// WebhooksService manages the organization's webhook endpoints
// (/v1/organizations/webhooks; admin key; beta webhooks-2026-10-07, sent
// by the SDK; at most 32 per organization). Reach it as c.Webhooks.
type WebhooksService struct{ c *Client }

// The organization webhook event types an endpoint may subscribe to.
var WebhookEventTypes = []string{"external_key.failed", "external_key.recovered", "external_storage.failed", "external_storage.recovered",
	"user_profile.enforcement_action_opened", "user_profile.enforcement_action_resolved", "user_profile.program_status_updated"}

// WebhookEndpoint is an endpoint's record.
//
//mms:json
type WebhookEndpoint struct {
	// ID identifies the endpoint.
	ID string `json:"id"`
	// URL is where deliveries go (HTTPS).
	URL string `json:"url"`
	// Name and Description are "" when none was given.
	Name        string `json:"name"`
	Description string `json:"description"`
	// EnabledEvents are the subscribed event types.
	EnabledEvents []string `json:"enabled_events"`
	// State is "enabled" or "disabled".
	State string `json:"state"`
	// DisabledReason says why the vendor disabled it; "" otherwise.
	DisabledReason string `json:"disabled_reason"`
	// CreatedAt and UpdatedAt are its times.
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// SigningSecret ("whsec_…") is set in Create's answer only: store it
	// then. It never prints (option.Secret).
	SigningSecret option.Secret `json:"signing_secret,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookEndpointDeleted is the answer to [WebhooksService.Delete].
//
//mms:json type=webhook_endpoint_deleted
type WebhookEndpointDeleted struct {
	// ID is the deleted endpoint's id.
	ID string `json:"id"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// WebhookSigningSecret is the answer to
// [WebhooksService.RegenerateSigningSecret]: the new secret, in force at
// once (the old one stops working immediately).
//
//mms:json
type WebhookSigningSecret struct {
	// SigningSecret is the new secret; it never prints.
	SigningSecret option.Secret `json:"signing_secret"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func validateWebhookURL(u string) error {
	p, err := url.Parse(u)
	if err != nil || p.Scheme != "https" || p.Host == "" {
		return invalid("url", "must be an https URL, got %q", u)
	}
	return nil
}

// WebhookCreateParams are the parameters of [WebhooksService.Create].
//
//mms:json
type WebhookCreateParams struct {
	// URL is the HTTPS address deliveries go to. Required.
	URL string `json:"url"`
	// EnabledEvents are the event types (WebhookEventTypes), at least one.
	EnabledEvents []string `json:"enabled_events"`
	// Name and Description label the endpoint.
	Name        string `json:"name,omitzero"`
	Description string `json:"description,omitzero"`
}

// Validate reports a URL that is not https, no events, or an unknown one.
func (p WebhookCreateParams) Validate() error {
	if err := validateWebhookURL(p.URL); err != nil {
		return err
	}
	if len(p.EnabledEvents) == 0 {
		return invalid("enabled_events", "must list at least one event type")
	}
	return eachOneOf("enabled_events", p.EnabledEvents, WebhookEventTypes...)
}

// WebhookUpdateParams are the parameters of [WebhooksService.Update]; only
// the fields set change (an empty EnabledEvents leaves the set unchanged,
// as the service does).
//
//mms:json
type WebhookUpdateParams struct {
	URL           string   `json:"url,omitzero"`
	Name          string   `json:"name,omitzero"`
	Description   string   `json:"description,omitzero"`
	EnabledEvents []string `json:"enabled_events,omitzero"`
	// State is "enabled" (resumes, clears disabled_reason) or "disabled".
	State string `json:"state,omitzero"`
}

// Validate reports a URL that is not https, an unknown event or state.
func (p WebhookUpdateParams) Validate() error {
	if p.URL != "" {
		if err := validateWebhookURL(p.URL); err != nil {
			return err
		}
	}
	if err := eachOneOf("enabled_events", p.EnabledEvents, WebhookEventTypes...); err != nil {
		return err
	}
	return oneOf("state", p.State, "enabled", "disabled")
}

// WebhookListParams are the parameters of [WebhooksService.List] (id
// scheme).
type WebhookListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// AfterID and BeforeID start the list after or before an endpoint.
	AfterID, BeforeID string
	// Order is "asc" or "desc" (the default) by creation.
	Order string
}

// Validate reports Limit outside 1–100, AfterID with BeforeID, or an
// unknown order.
func (p WebhookListParams) Validate() error {
	if err := validateLimit(p.Limit, 100); err != nil {
		return err
	}
	if p.AfterID != "" && p.BeforeID != "" {
		return invalid("after_id", "cannot be used together with before_id")
	}
	return oneOf("order", p.Order, "asc", "desc")
}

func (p WebhookListParams) listArgs() listArgs {
	a := idArgs(p.Limit, p.AfterID, p.BeforeID)
	setString(a.query, "order", p.Order)
	return a
}

func (s *WebhooksService) all() endpoint[WebhookEndpoint] {
	return ep[WebhookEndpoint](s.c, adminbridge.AdminKey, "/webhooks").beta(wire.BetaAdminWebhooks)
}

// Create creates an endpoint; its answer alone carries the signing
// secret. Creating: after an unknown outcome the error matches
// mms.ErrMaybeApplied.
func (s *WebhooksService) Create(ctx context.Context, p WebhookCreateParams, opts ...option.RequestOption) (*WebhookEndpoint, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves an endpoint.
func (s *WebhooksService) Get(ctx context.Context, endpointID string, opts ...option.RequestOption) (*WebhookEndpoint, error) {
	return s.all().id("webhook_endpoint_id", endpointID).get(ctx, opts)
}

// Update changes an endpoint.
func (s *WebhooksService) Update(ctx context.Context, endpointID string, p WebhookUpdateParams, opts ...option.RequestOption) (*WebhookEndpoint, error) {
	return s.all().id("webhook_endpoint_id", endpointID).update(ctx, p, opts)
}

// List iterates over the endpoints (id scheme).
func (s *WebhooksService) List(ctx context.Context, p WebhookListParams, opts ...option.RequestOption) iter.Seq2[WebhookEndpoint, error] {
	return s.all().list(ctx, adminbridge.ID, p, opts)
}

// ListPage fetches one page of endpoints.
func (s *WebhooksService) ListPage(ctx context.Context, p WebhookListParams, opts ...option.RequestOption) (*mms.Page[WebhookEndpoint], error) {
	return s.all().listPage(ctx, adminbridge.ID, p, opts)
}

// Delete deletes an endpoint.
func (s *WebhooksService) Delete(ctx context.Context, endpointID string, opts ...option.RequestOption) (*WebhookEndpointDeleted, error) {
	return as[WebhookEndpointDeleted](s.all().id("webhook_endpoint_id", endpointID)).delete(ctx, opts)
}

// RegenerateSigningSecret replaces the endpoint's signing secret; the old
// one stops working at once. Creating: not resent after an unknown
// outcome (a resend would replace the secret again); the error then
// matches mms.ErrMaybeApplied.
func (s *WebhooksService) RegenerateSigningSecret(ctx context.Context, endpointID string, opts ...option.RequestOption) (*WebhookSigningSecret, error) {
	return as[WebhookSigningSecret](s.all().id("webhook_endpoint_id", endpointID)).action(ctx, "/regenerate_signing_secret", nil, transport.Creating, opts)
}
