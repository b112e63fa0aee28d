package mms_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

const (
	testTunnelJSON = `{"id":"tnl_1","type":"tunnel","display_name":null,"domain":"a1.tunnels.example",` +
		`"created_at":"2026-06-22T10:00:00Z","archived_at":null}`
	testTunnelTokenJSON = `{"id":"tok_1","type":"tunnel_token","tunnel_token":"SeCrEt-tunnel-token"}`
	testTunnelCertJSON  = `{"id":"tcrt_1","type":"tunnel_certificate","tunnel_id":"tnl_1","fingerprint":"ab",` +
		`"created_at":"2026-06-22T10:00:00Z","expires_at":"2030-01-01T00:00:00Z","archived_at":null}`
)

// testPEMs are certificates made at test time: a CA, a second CA, a leaf
// (not a CA), and the CA's private key.
type testPEMs struct{ ca, ca2, leaf, key string }

func makeTestPEMs(t *testing.T) testPEMs {
	t.Helper()
	cert := func(ca bool) (string, string) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		require.NoError(t, err)
		now := time.Now()
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "mms-go test"},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(90 * 24 * time.Hour), BasicConstraintsValid: true, IsCA: ca}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		require.NoError(t, err)
		kd, err := x509.MarshalECPrivateKey(key)
		require.NoError(t, err)
		return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
			string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kd}))
	}
	ca, key := cert(true)
	ca2, _ := cert(true)
	leaf, _ := cert(false)
	return testPEMs{ca: ca, ca2: ca2, leaf: leaf, key: key}
}

// pemCase is a ca_certificate_pem and the field a *ValidationError
// names for it ("" when valid).
type pemCase struct{ name, pem, field string }

// pemCases are the certificate rules on both sides.
func pemCases(pems testPEMs) []pemCase {
	const field = "ca_certificate_pem"
	return []pemCase{
		{"CA", pems.ca, ""},
		{"8192 bytes", padPEM(pems.ca, 8192), ""},
		{"8193 bytes", padPEM(pems.ca, 8193), field},
		{"empty", "", field},
		{"leaf", pems.leaf, field},
		{"two certs", pems.ca + pems.ca2, field},
		{"cert and key", pems.ca + pems.key, field},
		{"key alone", pems.key, field},
		{"damaged key block", pems.ca + "-----BEGIN PRIVATE KEY-----\n!!\n", field},
		{"garbage", "garbage", field},
		{"not DER", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("junk")})), field},
		{"other block", pems.ca + string(pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: []byte("x")})), field},
		{"text around the block", "subject=CN = test\n" + pems.ca + "\n", ""},
	}
}

// padPEM pads p with newlines (text outside the block) to n bytes.
func padPEM(p string, n int) string { return p + strings.Repeat("\n", n-len(p)) }

// TestTunnelsWire checks every tunnels operation against a scripted
// server: the tunnels beta merged with a caller's, never the
// managed-agents beta.
func TestTunnelsWire(t *testing.T) {
	page := `{"data":[` + testTunnelJSON + `],"next_page":null}`
	runBetaWireCases(t, mms.BetaMCPTunnels, []wireCase{
		{"create", reply{body: testTunnelJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Create(ctx, mms.TunnelCreateParams{DisplayName: mms.Ptr("edge")})
			return err
		}, "POST", "/v1/tunnels", "", `{"display_name":"edge"}`, nil},
		{"create unnamed", reply{body: testTunnelJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Create(ctx, mms.TunnelCreateParams{})
			return err
		}, "POST", "/v1/tunnels", "", `{}`, nil},
		{"get", reply{body: testTunnelJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Get(ctx, "tnl_1")
			return err
		}, "GET", "/v1/tunnels/tnl_1", "", "", nil},
		{"archive", reply{body: testTunnelJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Archive(ctx, "tnl_1")
			return err
		}, "POST", "/v1/tunnels/tnl_1/archive", "", "", nil},
		{"reveal token", reply{body: testTunnelTokenJSON}, func(ctx context.Context, c *mms.Client) error {
			tok, err := c.Tunnels.RevealToken(ctx, "tnl_1")
			if err == nil && tok.TunnelToken.Reveal() != "SeCrEt-tunnel-token" {
				err = errors.New("token not decoded")
			}
			return err
		}, "POST", "/v1/tunnels/tnl_1/reveal_token", "", "", nil},
		{"rotate token", reply{body: testTunnelTokenJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.RotateToken(ctx, "tnl_1", mms.TunnelRotateTokenParams{Reason: mms.Ptr("leaked")})
			return err
		}, "POST", "/v1/tunnels/tnl_1/rotate_token", "", `{"reason":"leaked"}`, nil},
		{"rotate token, no reason", reply{body: testTunnelTokenJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.RotateToken(ctx, "tnl_1", mms.TunnelRotateTokenParams{})
			return err
		}, "POST", "/v1/tunnels/tnl_1/rotate_token", "", `{}`, nil},
		{"list", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Tunnels.List(ctx, mms.TunnelListParams{Limit: 5, IncludeArchived: true, Page: mms.Cursor{Token: "page_x"}}))
		}, "GET", "/v1/tunnels", "include_archived=true&limit=5&page=page_x", "", nil},
		{"list page", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.ListPage(ctx, mms.TunnelListParams{})
			return err
		}, "GET", "/v1/tunnels", "", "", nil},
	})
}

// TestTunnelCertificatesWire checks every certificates operation against
// a scripted server.
func TestTunnelCertificatesWire(t *testing.T) {
	pems := makeTestPEMs(t)
	page := `{"data":[` + testTunnelCertJSON + `],"next_page":null}`
	body, err := (mms.TunnelCertificateCreateParams{CACertificatePEM: pems.ca}).MarshalJSON()
	require.NoError(t, err)
	const base = "/v1/tunnels/tnl_1/certificates"
	runBetaWireCases(t, mms.BetaMCPTunnels, []wireCase{
		{"create", reply{body: testTunnelCertJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Certificates.Create(ctx, "tnl_1", mms.TunnelCertificateCreateParams{CACertificatePEM: pems.ca})
			return err
		}, "POST", base, "", string(body), nil},
		{"get", reply{body: testTunnelCertJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Certificates.Get(ctx, "tnl_1", "tcrt_1")
			return err
		}, "GET", base + "/tcrt_1", "", "", nil},
		{"archive", reply{body: testTunnelCertJSON}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Certificates.Archive(ctx, "tnl_1", "tcrt_1")
			return err
		}, "POST", base + "/tcrt_1/archive", "", "", nil},
		{"list", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			return drain(c.Tunnels.Certificates.List(ctx, "tnl_1", mms.TunnelCertificateListParams{Limit: 3, IncludeArchived: true}))
		}, "GET", base, "include_archived=true&limit=3", "", nil},
		{"list page, escaped id", reply{body: page}, func(ctx context.Context, c *mms.Client) error {
			_, err := c.Tunnels.Certificates.ListPage(ctx, "tnl 1", mms.TunnelCertificateListParams{Page: mms.Cursor{Token: "page_y"}})
			return err
		}, "GET", "/v1/tunnels/tnl 1/certificates", "page=page_y", "", nil},
	})
}

// TestTunnelsWorkspaceAndBeta: a per-call workspace arrives as its header,
// and a client-level beta header is merged with the tunnels beta, with no
// managed-agents beta added.
func TestTunnelsWorkspaceAndBeta(t *testing.T) {
	srv := newScriptServer(t, reply{body: testTunnelJSON})
	c := newTestClient(t, srv, option.WithHeader("vendor-beta", "files-api-2025-04-14"))
	if _, err := c.Tunnels.Get(context.Background(), "tnl_1", option.WithWorkspaceID("wrkspc_9")); err != nil {
		t.Fatal(err)
	}
	r := srv.requests()[0]
	if w := r.header.Get("Vendor-Workspace-Id"); w != "wrkspc_9" {
		t.Errorf("workspace header %q", w)
	}
	if b := r.header.Values("Vendor-Beta"); !cmp.Equal(b, []string{"files-api-2025-04-14," + mms.BetaMCPTunnels}) {
		t.Errorf("vendor-beta %q", b)
	}
}

// TestTunnelValidation: each rule on both sides of its limit, the path
// ids of every method and the list limits; nothing sent on failure, and
// no message quotes the PEM.
func TestTunnelValidation(t *testing.T) {
	pems := makeTestPEMs(t)
	for _, tt := range []struct {
		name  string
		p     mms.TunnelCreateParams
		field string
	}{
		{"no name", mms.TunnelCreateParams{}, ""},
		{"name 1", mms.TunnelCreateParams{DisplayName: mms.Ptr("a")}, ""},
		{"name empty", mms.TunnelCreateParams{DisplayName: mms.Ptr("")}, "display_name"},
		{"name 255", mms.TunnelCreateParams{DisplayName: mms.Ptr(strings.Repeat("é", 255))}, ""},
		{"name 256", mms.TunnelCreateParams{DisplayName: mms.Ptr(strings.Repeat("é", 256))}, "display_name"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testTunnelJSON})
			c := newTestClient(t, srv)
			_, err := c.Tunnels.Create(context.Background(), tt.p)
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
		})
	}
	for _, tt := range pemCases(pems) {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, reply{body: testTunnelCertJSON})
			c := newTestClient(t, srv)
			_, err := c.Tunnels.Certificates.Create(context.Background(), "tnl_1", mms.TunnelCertificateCreateParams{CACertificatePEM: tt.pem})
			checkAgentValidation(t, err, tt.field, len(srv.requests()))
			if err != nil && strings.Contains(err.Error(), "-----") {
				t.Errorf("error quotes the PEM: %v", err)
			}
		})
	}

	srv := newScriptServer(t)
	c := newTestClient(t, srv)
	ctx := context.Background()
	tc := c.Tunnels.Certificates
	ca := mms.TunnelCertificateCreateParams{CACertificatePEM: pems.ca}
	for name, tt := range map[string]struct {
		call  func() error
		field string
	}{
		"get":          {func() error { _, err := c.Tunnels.Get(ctx, ""); return err }, "tunnel_id"},
		"archive":      {func() error { _, err := c.Tunnels.Archive(ctx, ".."); return err }, "tunnel_id"},
		"reveal":       {func() error { _, err := c.Tunnels.RevealToken(ctx, ""); return err }, "tunnel_id"},
		"rotate":       {func() error { _, err := c.Tunnels.RotateToken(ctx, ".", mms.TunnelRotateTokenParams{}); return err }, "tunnel_id"},
		"limit 101":    {func() error { _, err := c.Tunnels.ListPage(ctx, mms.TunnelListParams{Limit: 101}); return err }, "limit"},
		"list limit":   {func() error { return drain(c.Tunnels.List(ctx, mms.TunnelListParams{Limit: -1})) }, "limit"},
		"cert create":  {func() error { _, err := tc.Create(ctx, "", ca); return err }, "tunnel_id"},
		"cert get":     {func() error { _, err := tc.Get(ctx, "tnl_1", ""); return err }, "certificate_id"},
		"cert get tnl": {func() error { _, err := tc.Get(ctx, "", "tcrt_1"); return err }, "tunnel_id"},
		"cert archive": {func() error { _, err := tc.Archive(ctx, "tnl_1", ".."); return err }, "certificate_id"},
		"cert list":    {func() error { return drain(tc.List(ctx, "", mms.TunnelCertificateListParams{})) }, "tunnel_id"},
		"cert page":    {func() error { _, err := tc.ListPage(ctx, "", mms.TunnelCertificateListParams{}); return err }, "tunnel_id"},
		"cert page 101": {func() error {
			_, err := tc.ListPage(ctx, "tnl_1", mms.TunnelCertificateListParams{Limit: 101})
			return err
		}, "limit"},
	} {
		var ve *mms.ValidationError
		if err := tt.call(); !errors.As(err, &ve) || ve.Field != tt.field {
			t.Errorf("%s: %v, want a ValidationError for %s", name, err, tt.field)
		}
	}
	if n := len(srv.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	// 100 is the largest page size.
	srv = newScriptServer(t, reply{body: `{"data":[],"next_page":null}`})
	c = newTestClient(t, srv)
	if _, err := c.Tunnels.ListPage(ctx, mms.TunnelListParams{Limit: 100}); err != nil {
		t.Errorf("limit 100: %v", err)
	}
}
