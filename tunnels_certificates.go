package mms

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"iter"
	"strings"
	"time"

	"github.com/mms-sdk/mms-go/option"
)

// TunnelCertificatesService adds, retrieves, lists and archives the CA
// certificates of a tunnel (/v1/tunnels/{tunnel_id}/certificates). Reach
// it as client.Tunnels.Certificates. Every call sends the tunnels beta
// ([BetaMCPTunnels]), merged with the caller's.
type TunnelCertificatesService struct {
	client *Client
}

// TunnelCertificate is a CA certificate of a tunnel (the wire type
// "tunnel_certificate"). Members this SDK version does not model are kept
// in Extra.
//
//mms:json type=tunnel_certificate
type TunnelCertificate struct {
	// ID identifies the certificate ("tcrt_…").
	ID string `json:"id"`
	// TunnelID is the tunnel it belongs to.
	TunnelID string `json:"tunnel_id"`
	// Fingerprint is the lowercase hex SHA-256 of the certificate's DER
	// encoding.
	Fingerprint string `json:"fingerprint"`
	// CreatedAt is an RFC 3339 string as the service sent it.
	CreatedAt string `json:"created_at"`
	// ExpiresAt is when the certificate expires; nil when the service did
	// not say.
	ExpiresAt *string `json:"expires_at"`
	// ArchivedAt is when the certificate was archived (on its own or with
	// its tunnel); nil while it is not.
	ArchivedAt *string `json:"archived_at"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// Created parses CreatedAt.
func (c TunnelCertificate) Created() (time.Time, error) {
	return time.Parse(time.RFC3339Nano, c.CreatedAt)
}

// maxCACertificatePEMBytes is the service's size limit of
// ca_certificate_pem (8 KB).
const maxCACertificatePEMBytes = 8192

// TunnelCertificateCreateParams are the parameters of
// [TunnelCertificatesService.Create].
//
//mms:json
type TunnelCertificateCreateParams struct {
	// CACertificatePEM is exactly one PEM "CERTIFICATE" block holding an
	// X.509 CA certificate, at most 8,192 bytes, with no private key.
	// Required.
	CACertificatePEM string `json:"ca_certificate_pem"`
}

// Validate reports the first rule the params break: the PEM empty or over
// 8,192 bytes, holding a private key block of any kind, holding no block
// or any block besides one CERTIFICATE, or a certificate that does not
// parse as X.509 or is not a CA. No message quotes the PEM.
func (p TunnelCertificateCreateParams) Validate() error {
	const field = "ca_certificate_pem"
	s := p.CACertificatePEM
	switch {
	case s == "":
		return invalid(field, "must not be empty")
	case len(s) > maxCACertificatePEMBytes:
		return invalid(field, "must be at most %d bytes, got %d", maxCACertificatePEMBytes, len(s))
	case strings.Contains(s, "PRIVATE KEY-----"):
		// Checked on the text, so a damaged key block is refused too.
		return invalid(field, "must not hold a private key")
	}
	var certs [][]byte
	for rest := []byte(s); ; {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			return invalid(field, "must hold only a CERTIFICATE block, found a %q block", b.Type)
		}
		certs = append(certs, b.Bytes)
	}
	if len(certs) != 1 {
		return invalid(field, "must hold exactly one PEM CERTIFICATE block, found %d", len(certs))
	}
	cert, err := x509.ParseCertificate(certs[0])
	if err != nil {
		return invalid(field, "must be an X.509 certificate: %v", err)
	}
	if !cert.IsCA {
		return invalid(field, "must be a CA certificate (basic constraints CA:TRUE)")
	}
	return nil
}

// Create adds a CA certificate to a tunnel (POST
// /v1/tunnels/{tunnel_id}/certificates). The params are checked first (see
// [TunnelCertificateCreateParams.Validate]); a *ValidationError means
// nothing was sent.
func (s *TunnelCertificatesService) Create(ctx context.Context, tunnelID string, p TunnelCertificateCreateParams, opts ...option.RequestOption) (*TunnelCertificate, error) {
	return s.all(tunnelID).post(ctx, p, opts)
}

// Get retrieves a certificate (GET
// /v1/tunnels/{tunnel_id}/certificates/{certificate_id}).
func (s *TunnelCertificatesService) Get(ctx context.Context, tunnelID, certificateID string, opts ...option.RequestOption) (*TunnelCertificate, error) {
	return s.at(tunnelID, certificateID).get(ctx, opts)
}

// Archive archives a certificate (POST
// /v1/tunnels/{tunnel_id}/certificates/{certificate_id}/archive).
func (s *TunnelCertificatesService) Archive(ctx context.Context, tunnelID, certificateID string, opts ...option.RequestOption) (*TunnelCertificate, error) {
	return s.at(tunnelID, certificateID).action(ctx, "/archive", nil, opts)
}

// TunnelCertificateListParams are the parameters of
// [TunnelCertificatesService.List] and [TunnelCertificatesService.ListPage].
type TunnelCertificateListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
	// IncludeArchived lists archived certificates too.
	IncludeArchived bool
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set.
func (p TunnelCertificateListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p TunnelCertificateListParams) listArgs() listArgs {
	return archivedListArgs(p.Limit, p.Page, p.IncludeArchived)
}

// List iterates over a tunnel's certificates, newest first, fetching pages
// as it goes (GET /v1/tunnels/{tunnel_id}/certificates, cursor scheme).
// Nothing is sent before the loop starts; an error is yielded once, last.
func (s *TunnelCertificatesService) List(ctx context.Context, tunnelID string, p TunnelCertificateListParams, opts ...option.RequestOption) iter.Seq2[TunnelCertificate, error] {
	return s.all(tunnelID).list(ctx, p, opts)
}

// ListPage fetches one page of a tunnel's certificates (GET
// /v1/tunnels/{tunnel_id}/certificates).
func (s *TunnelCertificatesService) ListPage(ctx context.Context, tunnelID string, p TunnelCertificateListParams, opts ...option.RequestOption) (*Page[TunnelCertificate], error) {
	return s.all(tunnelID).listPage(ctx, p, opts)
}

// all is a tunnel's certificates' endpoint
// (/v1/tunnels/{tunnel_id}/certificates).
func (s *TunnelCertificatesService) all(tunnelID string) endpoint[TunnelCertificate] {
	return tunnelEndpoint[TunnelCertificate](s.client, "/v1/tunnels").id("tunnel_id", tunnelID).sub("/certificates")
}

// at is one certificate's endpoint
// (/v1/tunnels/{tunnel_id}/certificates/{certificate_id}).
func (s *TunnelCertificatesService) at(tunnelID, certificateID string) endpoint[TunnelCertificate] {
	return s.all(tunnelID).id("certificate_id", certificateID)
}
