package mmstest

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The Tunnels endpoints (mcp-tunnels beta; the rule chain refuses a
// request without it).
//
//   - POST /v1/tunnels creates a tunnel ("tnl_…" ids): display_name
//     optional, a string of 1–255 characters or null. Each tunnel gets a
//     domain of its own, "<label>.tunnels.mmstest.invalid", never given to
//     another tunnel, and a connector token.
//   - GET /v1/tunnels/{tunnel_id}; GET /v1/tunnels: newest first,
//     include_archived, cursor scheme, limit 1–100 (default 20).
//   - POST …/reveal_token answers the tunnel's token {id, type:
//     "tunnel_token", tunnel_token}, the same until rotated; POST
//     …/rotate_token {reason?: string|null} replaces it (a new id and
//     value). The reason is an audit note with no length limit (the spec
//     names none); Server.TunnelRotationReasons returns the reasons sent.
//   - POST …/archive is irreversible: it archives the tunnel's
//     certificates and invalidates its token, after which reveal_token,
//     rotate_token and adding a certificate are a 400
//     invalid_request_error saying the tunnel is archived. Archiving again
//     returns the archived record.
//   - POST …/certificates {ca_certificate_pem} adds a CA certificate
//     ("tcrt_…" ids) after the SDK's checks: at most 8,192 bytes, no
//     private key block (of any kind), exactly one PEM CERTIFICATE block,
//     parsing as an X.509 certificate whose basic constraints say CA.
//     fingerprint is the lowercase hex SHA-256 of the DER, expires_at the
//     certificate's NotAfter (RFC 3339, UTC). GET …/certificates (same
//     list rules), GET …/certificates/{certificate_id}, POST
//     …/certificates/{certificate_id}/archive (repeating returns the
//     archived record).

// tunnelStore holds a server's tunnels and their certificates
// (Server.tunnels).
type tunnelStore struct {
	srv     *Server
	mu      sync.Mutex
	tunnels []*storedTunnel          // in creation order
	certs   []*tunnelCertificateWire // in creation order, every tunnel's
}

// storedTunnel is a tunnel with its current token and the reasons of its
// rotations.
type storedTunnel struct {
	rec     tunnelWire
	token   tunnelTokenWire
	reasons []string
}

// tunnelWire is the tunnel record.
type tunnelWire struct {
	ID          string  `json:"id"`
	Type        string  `json:"type"`
	DisplayName *string `json:"display_name"`
	Domain      string  `json:"domain"`
	CreatedAt   string  `json:"created_at"`
	ArchivedAt  *string `json:"archived_at"`
}

// tunnelTokenWire is the token record.
type tunnelTokenWire struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	TunnelToken string `json:"tunnel_token"`
}

// tunnelCertificateWire is the certificate record.
type tunnelCertificateWire struct {
	ID          string  `json:"id"`
	Type        string  `json:"type"`
	TunnelID    string  `json:"tunnel_id"`
	Fingerprint string  `json:"fingerprint"`
	CreatedAt   string  `json:"created_at"`
	ExpiresAt   *string `json:"expires_at"`
	ArchivedAt  *string `json:"archived_at"`
}

// newToken issues a tunnel's next token: a fresh id, and a value derived
// from it, so the fake stays deterministic.
func (st *tunnelStore) newToken(tunnelID string) tunnelTokenWire {
	id := st.srv.newID("tnltok_")
	sum := sha256.Sum256([]byte("mmstest tunnel token " + tunnelID + " " + id))
	return tunnelTokenWire{ID: id, Type: "tunnel_token", TunnelToken: "mmstest-tunnel-" + hex.EncodeToString(sum[:20])}
}

// createTunnel serves POST /v1/tunnels.
func (st *tunnelStore) createTunnel(w http.ResponseWriter, r *http.Request) {
	var b struct {
		DisplayName json.RawMessage `json:"display_name"`
	}
	if badBody(w, r, &b) {
		return
	}
	var name *string
	if b.DisplayName != nil {
		var err error
		if name, err = displayName(b.DisplayName, true); err != nil {
			badRequest(w, r, err)
			return
		}
	}
	id := st.srv.newID("tnl_")
	// The domain's label comes from a counter of its own, so no two
	// tunnels ever share one.
	domain := st.srv.newID("tnl-") + ".tunnels.mmstest.invalid"
	rec := tunnelWire{ID: id, Type: "tunnel", DisplayName: name, Domain: domain,
		CreatedAt: st.srv.now().UTC().Format(fileTimeLayout)}
	t := &storedTunnel{rec: rec, token: st.newToken(id)}
	withLock(&st.mu, func() { st.tunnels = append(st.tunnels, t) })
	writeJSON(w, http.StatusOK, rec) // rec is this request's own copy
}

// lookupTunnel returns the tunnel named by the path, or answers
// 404 and returns nil. st.mu must be held.
func (st *tunnelStore) lookupTunnel(w http.ResponseWriter, r *http.Request) *storedTunnel {
	return pathItem(w, r, st.tunnels, "tunnel_id", "Tunnel", func(t *storedTunnel) string { return t.rec.ID })
}

// liveTunnel is lookupTunnel for the operations an archived tunnel
// refuses: the finder it returns answers a 400 saying why (what), and nil.
// st.mu must be held when the finder runs (withFound).
func (st *tunnelStore) liveTunnel(what string) func(http.ResponseWriter, *http.Request) *storedTunnel {
	return func(w http.ResponseWriter, r *http.Request) *storedTunnel {
		t := st.lookupTunnel(w, r)
		if t == nil || t.rec.ArchivedAt == nil {
			return t
		}
		badRequest(w, r, fmt.Errorf("tunnel %s is archived: %s", t.rec.ID, what))
		return nil
	}
}

// getTunnel serves GET /v1/tunnels/{tunnel_id}.
func (st *tunnelStore) getTunnel(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupTunnel, func(t *storedTunnel) {
		writeJSON(w, http.StatusOK, t.rec)
	})
}

// archiveTunnel serves POST /v1/tunnels/{tunnel_id}/archive: the tunnel's
// certificates are archived with it and its token stops working.
func (st *tunnelStore) archiveTunnel(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupTunnel, func(t *storedTunnel) {
		if t.rec.ArchivedAt == nil {
			ts := st.srv.now().UTC().Format(fileTimeLayout)
			t.rec.ArchivedAt = &ts
			t.token = tunnelTokenWire{}
			for _, c := range st.certs {
				if c.TunnelID == t.rec.ID && c.ArchivedAt == nil {
					c.ArchivedAt = &ts
				}
			}
		}
		writeJSON(w, http.StatusOK, t.rec)
	})
}

// revealToken serves POST /v1/tunnels/{tunnel_id}/reveal_token.
func (st *tunnelStore) revealToken(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.liveTunnel("its token was invalidated and cannot be revealed"), func(t *storedTunnel) {
		writeJSON(w, http.StatusOK, t.token)
	})
}

// rotateToken serves POST /v1/tunnels/{tunnel_id}/rotate_token.
func (st *tunnelStore) rotateToken(w http.ResponseWriter, r *http.Request) {
	var b struct {
		Reason json.RawMessage `json:"reason"`
	}
	// Every member is optional, so no body at all is an empty request.
	if r.ContentLength != 0 {
		if badBody(w, r, &b) {
			return
		}
	}
	var reason string
	if b.Reason != nil && !isNullJSON(b.Reason) {
		if err := json.Unmarshal(b.Reason, &reason); err != nil {
			badRequest(w, r, errors.New("reason: Input should be a valid string"))
			return
		}
	}
	withFound(&st.mu, w, r, st.liveTunnel("its token was invalidated and cannot be rotated"), func(t *storedTunnel) {
		t.token = st.newToken(t.rec.ID)
		t.reasons = append(t.reasons, reason)
		writeJSON(w, http.StatusOK, t.token)
	})
}

// TunnelRotationReasons returns the reason of each rotation of the
// tunnel's token, oldest first ("" where none or null was sent); nil for
// an unknown tunnel.
func (s *Server) TunnelRotationReasons(tunnelID string) []string {
	st := s.tunnels
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, t := range st.tunnels {
		if t.rec.ID == tunnelID {
			return append([]string{}, t.reasons...)
		}
	}
	return nil
}

// listTunnels serves GET /v1/tunnels, newest first.
func (st *tunnelStore) listTunnels(w http.ResponseWriter, r *http.Request) {
	listArchivable(w, r, &st.mu, &st.tunnels, func(t *storedTunnel) (tunnelWire, *string) { return t.rec, t.rec.ArchivedAt }, nil,
		func(t tunnelWire) string { return t.ID })
}

// maxCACertificatePEM is the size limit of ca_certificate_pem (8 KB).
const maxCACertificatePEM = 8192

// parseCACertificate checks a ca_certificate_pem as the service does and
// returns its certificate. No message quotes the PEM.
func parseCACertificate(s string) (*x509.Certificate, error) {
	const field = "ca_certificate_pem: "
	switch {
	case s == "":
		return nil, errors.New(field + "must not be empty")
	case len(s) > maxCACertificatePEM:
		return nil, fmt.Errorf(field+"must be at most %d bytes, got %d", maxCACertificatePEM, len(s))
	case strings.Contains(s, "PRIVATE KEY-----"):
		return nil, errors.New(field + "must not contain a private key")
	}
	var ders [][]byte
	for rest := []byte(s); ; {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			break
		}
		if b.Type != "CERTIFICATE" {
			return nil, fmt.Errorf(field+"unexpected PEM block %q; only one CERTIFICATE is allowed", b.Type)
		}
		ders = append(ders, b.Bytes)
	}
	if len(ders) != 1 {
		return nil, fmt.Errorf(field+"must contain exactly one PEM CERTIFICATE block, found %d", len(ders))
	}
	cert, err := x509.ParseCertificate(ders[0])
	if err != nil {
		return nil, fmt.Errorf(field+"not a valid X.509 certificate: %v", err)
	}
	if !cert.IsCA {
		return nil, errors.New(field + "not a CA certificate (basic constraints CA:TRUE required)")
	}
	return cert, nil
}

// createCertificate serves POST /v1/tunnels/{tunnel_id}/certificates.
func (st *tunnelStore) createCertificate(w http.ResponseWriter, r *http.Request) {
	var b struct {
		PEM *string `json:"ca_certificate_pem"`
	}
	if badBody(w, r, &b) {
		return
	}
	if b.PEM == nil {
		badRequest(w, r, errors.New("ca_certificate_pem: Field required"))
		return
	}
	cert, err := parseCACertificate(*b.PEM)
	if err != nil {
		badRequest(w, r, err)
		return
	}
	withFound(&st.mu, w, r, st.liveTunnel("certificates cannot be added"), func(t *storedTunnel) {
		sum := sha256.Sum256(cert.Raw)
		expires := cert.NotAfter.UTC().Format(time.RFC3339)
		c := &tunnelCertificateWire{ID: st.srv.newID("tcrt_"), Type: "tunnel_certificate", TunnelID: t.rec.ID,
			Fingerprint: hex.EncodeToString(sum[:]), CreatedAt: st.srv.now().UTC().Format(fileTimeLayout), ExpiresAt: &expires}
		st.certs = append(st.certs, c)
		writeJSON(w, http.StatusOK, *c)
	})
}

// lookupCertificate returns the certificate named by the path, of the
// tunnel named by it, or answers 404 and returns nil. st.mu must be held.
func (st *tunnelStore) lookupCertificate(w http.ResponseWriter, r *http.Request) *tunnelCertificateWire {
	t := st.lookupTunnel(w, r)
	if t == nil {
		return nil
	}
	id := r.PathValue("certificate_id")
	i := slices.IndexFunc(st.certs, func(c *tunnelCertificateWire) bool { return c.ID == id && c.TunnelID == t.rec.ID })
	if i < 0 {
		writeError(w, r, http.StatusNotFound, wire.ErrNotFound, "Tunnel certificate not found: "+id)
		return nil
	}
	return st.certs[i]
}

// getCertificate serves GET …/certificates/{certificate_id}.
func (st *tunnelStore) getCertificate(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupCertificate, func(c *tunnelCertificateWire) {
		writeJSON(w, http.StatusOK, *c)
	})
}

// archiveCertificate serves POST …/certificates/{certificate_id}/archive.
func (st *tunnelStore) archiveCertificate(w http.ResponseWriter, r *http.Request) {
	withFound(&st.mu, w, r, st.lookupCertificate, func(c *tunnelCertificateWire) {
		if c.ArchivedAt == nil {
			ts := st.srv.now().UTC().Format(fileTimeLayout)
			c.ArchivedAt = &ts
		}
		writeJSON(w, http.StatusOK, *c)
	})
}

// listCertificates serves GET /v1/tunnels/{tunnel_id}/certificates,
// newest first.
func (st *tunnelStore) listCertificates(w http.ResponseWriter, r *http.Request) {
	listArchivableIn(w, r, &st.mu, st.lookupTunnel, &st.certs,
		func(c *tunnelCertificateWire, t *storedTunnel) (tunnelCertificateWire, *string, bool) {
			return *c, c.ArchivedAt, c.TunnelID == t.rec.ID
		}, func(c tunnelCertificateWire) string { return c.ID })
}
