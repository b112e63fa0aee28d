package mms

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
	"github.com/mms-sdk/mms-go/option"
)

// BetaMCPTunnels is the beta every tunnels request carries (/v1/tunnels).
// The services add it themselves, merged as a set with the client's and
// the call's betas; they never add [BetaManagedAgents].
const BetaMCPTunnels = "mcp-tunnels-2026-06-22"

// tunnelBetas is the endpoint beta list of every tunnels request.
var tunnelBetas = []string{wire.BetaMCPTunnels}

// tunnelEndpoint is the tunnels endpoint at path (escaped), the beta added,
// answering a T.
func tunnelEndpoint[T any](c *Client, path string) endpoint[T] {
	return endpoint[T]{c: c, path: path, betas: tunnelBetas}
}

// TunnelsService creates, retrieves, lists and archives MCP tunnels
// (/v1/tunnels), and reveals and rotates their connector tokens;
// Certificates manages a tunnel's CA certificates. Reach it as
// client.Tunnels. Every call sends the mcp-tunnels-2026-06-22 beta
// ([BetaMCPTunnels]), merged with the caller's betas;
// option.WithWorkspaceID picks the workspace per call.
type TunnelsService struct {
	client *Client
	// Certificates manages the CA certificates of a tunnel.
	Certificates *TunnelCertificatesService
}

// Tunnel is a tunnel's record (the wire type "tunnel"). Members this SDK
// version does not model are kept in Extra, so json.Marshal writes a reply
// back without loss.
//
//mms:json type=tunnel
type Tunnel struct {
	// ID identifies the tunnel ("tnl_…").
	ID string `json:"id"`
	// DisplayName is the tunnel's name; nil when it has none.
	DisplayName *string `json:"display_name"`
	// Domain is the hostname the service assigned: MCP server URLs on its
	// subdomains are routed through the tunnel. It is never reused.
	Domain string `json:"domain"`
	// CreatedAt is an RFC 3339 string as the service sent it (see
	// [Tunnel.Created]).
	CreatedAt string `json:"created_at"`
	// ArchivedAt is when the tunnel was archived; nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (t Tunnel) Created() (time.Time, error) { return time.Parse(time.RFC3339Nano, t.CreatedAt) }

// TunnelToken is a tunnel's connector credential (the wire type
// "tunnel_token"), the answer to [TunnelsService.RevealToken] and
// [TunnelsService.RotateToken]. TunnelToken holds the secret as a
// [Secret]: fmt and slog print it redacted, json.Marshal writes its value
// and tok.TunnelToken.Reveal() reads it.
//
//mms:json type=tunnel_token
type TunnelToken struct {
	// ID identifies the token; it changes on rotation.
	ID string `json:"id"`
	// TunnelToken is the secret the tunnel's connector authenticates with.
	TunnelToken Secret `json:"tunnel_token"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// LogValue prints the record for slog with the secret redacted: slog's
// JSON handler would otherwise marshal it, secret and all.
func (t TunnelToken) LogValue() slog.Value { return logRedacted(t) }

// TunnelCreateParams are the parameters of [TunnelsService.Create].
//
//mms:json
type TunnelCreateParams struct {
	// DisplayName names the tunnel, 1 to 255 characters; nil leaves it
	// unnamed.
	DisplayName *string `json:"display_name,omitzero"`
}

// Validate reports the first rule the params break: a display name given
// but empty or longer than 255 characters.
func (p TunnelCreateParams) Validate() error {
	if p.DisplayName != nil {
		return validateLength("display_name", *p.DisplayName, 1, maxDisplayNameLen)
	}
	return nil
}

// TunnelRotateTokenParams are the parameters of
// [TunnelsService.RotateToken].
//
//mms:json
type TunnelRotateTokenParams struct {
	// Reason is an audit note kept with the rotation; nil sends none. The
	// service sets no length limit, so the SDK checks none.
	Reason *string `json:"reason,omitzero"`
}

// Validate returns nil: the service sets no limit on Reason, so there is
// nothing to check client-side.
func (p TunnelRotateTokenParams) Validate() error { return nil }

// Create creates a tunnel (POST /v1/tunnels); the service assigns its
// domain. The params are checked first (see [TunnelCreateParams.Validate]);
// a *ValidationError means nothing was sent.
func (s *TunnelsService) Create(ctx context.Context, p TunnelCreateParams, opts ...option.RequestOption) (*Tunnel, error) {
	return s.all().post(ctx, p, opts)
}

// Get retrieves a tunnel (GET /v1/tunnels/{tunnel_id}).
func (s *TunnelsService) Get(ctx context.Context, tunnelID string, opts ...option.RequestOption) (*Tunnel, error) {
	return s.at(tunnelID).get(ctx, opts)
}

// Archive archives a tunnel (POST /v1/tunnels/{tunnel_id}/archive). It
// cannot be undone: the service archives the tunnel's certificates,
// retires its hostname and invalidates its token. Archiving an archived
// tunnel returns its record.
func (s *TunnelsService) Archive(ctx context.Context, tunnelID string, opts ...option.RequestOption) (*Tunnel, error) {
	return s.at(tunnelID).action(ctx, "/archive", nil, opts)
}

// RevealToken returns the tunnel's connector token (POST
// /v1/tunnels/{tunnel_id}/reveal_token; a POST keeps it out of access
// logs). It is the same token until [TunnelsService.RotateToken].
func (s *TunnelsService) RevealToken(ctx context.Context, tunnelID string, opts ...option.RequestOption) (*TunnelToken, error) {
	return as[TunnelToken](s.at(tunnelID)).action(ctx, "/reveal_token", nil, opts)
}

// RotateToken replaces the tunnel's connector token and returns the new
// one (POST /v1/tunnels/{tunnel_id}/rotate_token); the service keeps
// existing connections up.
func (s *TunnelsService) RotateToken(ctx context.Context, tunnelID string, p TunnelRotateTokenParams, opts ...option.RequestOption) (*TunnelToken, error) {
	return as[TunnelToken](s.at(tunnelID)).action(ctx, "/rotate_token", p, opts)
}

// TunnelListParams are the parameters of [TunnelsService.List] and
// [TunnelsService.ListPage].
type TunnelListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived tunnels too.
	IncludeArchived bool
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set.
func (p TunnelListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p TunnelListParams) listArgs() listArgs {
	return archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
}

// archivedListArgs are the arguments of a cursor list whose only filter is
// include_archived.

// List iterates over the tunnels, newest first, fetching pages as it goes
// (GET /v1/tunnels, cursor scheme). Nothing is sent before the loop
// starts; ranging again lists again from p.Page; an error is yielded once,
// last.
func (s *TunnelsService) List(ctx context.Context, p TunnelListParams, opts ...option.RequestOption) iter.Seq2[Tunnel, error] {
	return s.all().list(ctx, p, opts)
}

// ListPage fetches one page of tunnels (GET /v1/tunnels). Continue with
// Page set to the page's *NextPage while it is not nil.
func (s *TunnelsService) ListPage(ctx context.Context, p TunnelListParams, opts ...option.RequestOption) (*Page[Tunnel], error) {
	return s.all().listPage(ctx, p, opts)
}

// all is the tunnels' endpoint (/v1/tunnels).
func (s *TunnelsService) all() endpoint[Tunnel] {
	return tunnelEndpoint[Tunnel](s.client, "/v1/tunnels")
}

// at is one tunnel's endpoint (/v1/tunnels/{tunnel_id}).
func (s *TunnelsService) at(tunnelID string) endpoint[Tunnel] {
	return s.all().id("tunnel_id", tunnelID)
}
