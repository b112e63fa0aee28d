package mmstest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/internal/wire"

	"github.com/stretchr/testify/require"
)

// tunnelCall sends a tunnels request (with its beta).
func tunnelCall(t *testing.T, s *Server, method, path, body string) (*http.Response, []byte) {
	t.Helper()
	var req *http.Request
	if body == "" {
		req = newReq(t, s, method, path, nil)
	} else {
		req = newReq(t, s, method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(wire.HeaderBeta, wire.BetaMCPTunnels)
	return send(t, s, req)
}

// tunnelOK sends a tunnels request that must succeed and decodes the
// answer into a T.
func tunnelOK[T any](t *testing.T, s *Server, method, path, body string) T {
	t.Helper()
	resp, b := tunnelCall(t, s, method, path, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// tunnelIDs lists every page of path (a tunnels list) and returns the ids.
func tunnelIDs(t *testing.T, s *Server, path string) []string {
	t.Helper()
	var ids []string
	sep, page := "?", ""
	if strings.Contains(path, "?") {
		sep = "&"
	}
	for {
		p := tunnelOK[cursorPage[struct{ ID string }]](t, s, "GET", path+page, "")
		for _, d := range p.Data {
			ids = append(ids, d.ID)
		}
		if p.NextPage == nil {
			return ids
		}
		page = sep + "page=" + *p.NextPage
	}
}

// testCert makes a self-signed certificate (a CA when ca is set) expiring
// at notAfter, and returns it as PEM with its DER; the key's PEM too.
func testCert(t *testing.T, ca bool, notAfter time.Time) (certPEM string, der []byte, keyPEM string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mmstest"},
		NotBefore: notAfter.Add(-48 * time.Hour), NotAfter: notAfter, BasicConstraintsValid: true, IsCA: ca}
	if ca {
		tmpl.KeyUsage = x509.KeyUsageCertSign
	}
	der, err = x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), der,
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd}))
}

func pemBody(p string) string {
	b, _ := json.Marshal(map[string]string{"ca_certificate_pem": p})
	return string(b)
}

func TestTunnelsRequireBeta(t *testing.T) {
	s := newTestServer(t)
	resp, body := agentCall(t, s, http.MethodGet, "/v1/tunnels", "")
	wantError(t, resp, body, http.StatusBadRequest, wire.ErrInvalidRequest, wire.BetaMCPTunnels)
}

func TestTunnelsLifecycle(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	a := tunnelOK[tunnelWire](t, s, "POST", "/v1/tunnels", `{"display_name":"edge"}`)
	if !strings.HasPrefix(a.ID, "tnl_") || a.Type != "tunnel" || *a.DisplayName != "edge" || a.ArchivedAt != nil ||
		!strings.HasSuffix(a.Domain, ".tunnels.mmstest.invalid") {
		t.Fatalf("created %+v", a)
	}
	clock.Advance(time.Minute)
	b := tunnelOK[tunnelWire](t, s, "POST", "/v1/tunnels", `{}`)
	c := tunnelOK[tunnelWire](t, s, "POST", "/v1/tunnels", `{"display_name":null}`)
	if b.DisplayName != nil || c.DisplayName != nil || a.Domain == b.Domain || b.Domain == c.Domain || a.Domain == c.Domain {
		t.Fatalf("unnamed %+v %+v", b, c)
	}
	tunnelOK[tunnelWire](t, s, "POST", "/v1/tunnels", `{"display_name":"`+strings.Repeat("n", 255)+`"}`)
	for body, msg := range map[string]string{
		`{"display_name":""}`: "1 to 255",
		`{"display_name":"` + strings.Repeat("n", 256) + `"}`: "1 to 255",
		`{"display_name":1}`: "valid string",
		`{"name":"x"}`:       "name: Extra inputs",
	} {
		resp, rb := tunnelCall(t, s, "POST", "/v1/tunnels", body)
		wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, msg)
	}
	if g := tunnelOK[tunnelWire](t, s, "GET", "/v1/tunnels/"+a.ID, ""); g.ID != a.ID || *g.DisplayName != "edge" || g.Domain != a.Domain || g.CreatedAt != a.CreatedAt {
		t.Errorf("get %+v", g)
	}
	resp, rb := tunnelCall(t, s, "GET", "/v1/tunnels/tnl_nope", "")
	wantError(t, resp, rb, http.StatusNotFound, wire.ErrNotFound, "tnl_nope")

	path := "/v1/tunnels/" + a.ID
	t1 := tunnelOK[tunnelTokenWire](t, s, "POST", path+"/reveal_token", "")
	if t1.Type != "tunnel_token" || t1.ID == "" || t1.TunnelToken == "" {
		t.Fatalf("token %+v", t1)
	}
	if again := tunnelOK[tunnelTokenWire](t, s, "POST", path+"/reveal_token", ""); again != t1 {
		t.Errorf("reveal changed the token: %+v then %+v", t1, again)
	}
	if other := tunnelOK[tunnelTokenWire](t, s, "POST", "/v1/tunnels/"+b.ID+"/reveal_token", ""); other.TunnelToken == t1.TunnelToken {
		t.Errorf("two tunnels share a token")
	}
	t2 := tunnelOK[tunnelTokenWire](t, s, "POST", path+"/rotate_token", `{"reason":"leaked"}`)
	t3 := tunnelOK[tunnelTokenWire](t, s, "POST", path+"/rotate_token", `{"reason":null}`)
	t4 := tunnelOK[tunnelTokenWire](t, s, "POST", path+"/rotate_token", "")
	long := strings.Repeat("r", 10000) // no limit on the reason
	tunnelOK[tunnelTokenWire](t, s, "POST", path+"/rotate_token", `{"reason":"`+long+`"}`)
	if t2.ID == t1.ID || t2.TunnelToken == t1.TunnelToken || t3.TunnelToken == t2.TunnelToken || t4.ID == t3.ID {
		t.Errorf("rotation kept the token: %+v %+v %+v %+v", t1, t2, t3, t4)
	}
	if now := tunnelOK[tunnelTokenWire](t, s, "POST", path+"/reveal_token", ""); now.ID == t4.ID {
		t.Errorf("reveal after rotation: %+v", now)
	}
	if got := s.TunnelRotationReasons(a.ID); len(got) != 4 || got[0] != "leaked" || got[1] != "" || got[2] != "" || got[3] != long {
		t.Errorf("reasons %q", got)
	}
	if s.TunnelRotationReasons("tnl_nope") != nil {
		t.Errorf("reasons of an unknown tunnel")
	}
	for body, msg := range map[string]string{`{"reason":1}`: "reason: Input should be a valid string", `{"why":"x"}`: "why: Extra inputs"} {
		resp, rb := tunnelCall(t, s, "POST", path+"/rotate_token", body)
		wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, msg)
	}

	clock.Advance(time.Minute)
	ar := tunnelOK[tunnelWire](t, s, "POST", path+"/archive", "")
	if ar.ArchivedAt == nil {
		t.Fatalf("archived %+v", ar)
	}
	clock.Advance(time.Minute)
	if again := tunnelOK[tunnelWire](t, s, "POST", path+"/archive", ""); again.ArchivedAt == nil || *again.ArchivedAt != *ar.ArchivedAt {
		t.Errorf("archive again %+v", again)
	}
	for _, op := range []string{"/reveal_token", "/rotate_token"} {
		resp, rb := tunnelCall(t, s, "POST", path+op, `{}`)
		wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, "archived")
		if strings.Contains(string(rb), t4.TunnelToken) {
			t.Errorf("%s error shows the token", op)
		}
	}
	if ids := tunnelIDs(t, s, "/v1/tunnels?limit=1"); len(ids) != 3 || ids[2] != b.ID {
		t.Errorf("default list %v", ids)
	}
	if ids := tunnelIDs(t, s, "/v1/tunnels?include_archived=true&limit=2"); len(ids) != 4 || ids[3] != a.ID {
		t.Errorf("include_archived list %v (newest first)", ids)
	}
	for _, q := range []string{"?limit=0", "?limit=101", "?include_archived=maybe", "?page=bogus"} {
		resp, rb := tunnelCall(t, s, "GET", "/v1/tunnels"+q, "")
		wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, "")
	}
}

func TestTunnelCertificates(t *testing.T) {
	clock := newFakeClock()
	s := newTestServer(t, WithClock(clock.Now))
	tn := tunnelOK[tunnelWire](t, s, "POST", "/v1/tunnels", `{}`)
	base := "/v1/tunnels/" + tn.ID + "/certificates"
	notAfter := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	caPEM, der, keyPEM := testCert(t, true, notAfter)
	leafPEM, _, _ := testCert(t, false, notAfter)
	ca2PEM, _, _ := testCert(t, true, notAfter)

	c1 := tunnelOK[tunnelCertificateWire](t, s, "POST", base, pemBody(caPEM))
	sum := sha256.Sum256(der)
	if !strings.HasPrefix(c1.ID, "tcrt_") || c1.Type != "tunnel_certificate" || c1.TunnelID != tn.ID ||
		c1.Fingerprint != hex.EncodeToString(sum[:]) || c1.ExpiresAt == nil || *c1.ExpiresAt != "2031-05-06T07:08:09Z" || c1.ArchivedAt != nil {
		t.Fatalf("created %+v", c1)
	}
	// A PEM of exactly 8,192 bytes (padded with text outside the block) is
	// taken; one byte more is not.
	pad := func(p string, n int) string { return p + strings.Repeat("\n", n-len(p)) }
	clock.Advance(time.Minute)
	c2 := tunnelOK[tunnelCertificateWire](t, s, "POST", base, pemBody(pad(ca2PEM, 8192)))
	for name, tt := range map[string]struct{ body, msg string }{
		"8193 bytes":  {pemBody(pad(ca2PEM, 8193)), "at most 8192 bytes, got 8193"},
		"leaf":        {pemBody(leafPEM), "not a CA certificate"},
		"two certs":   {pemBody(caPEM + ca2PEM), "exactly one PEM CERTIFICATE block, found 2"},
		"cert+key":    {pemBody(caPEM + keyPEM), "private key"},
		"rsa key":     {pemBody(caPEM + "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"), "private key"},
		"garbage":     {pemBody("not a certificate"), "found 0"},
		"bad DER":     {pemBody(string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("junk")}))), "X.509"},
		"public key":  {pemBody(caPEM + string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: []byte("x")}))), `"PUBLIC KEY"`},
		"empty":       {pemBody(""), "must not be empty"},
		"missing":     {`{}`, "ca_certificate_pem: Field required"},
		"extra":       {`{"ca_certificate_pem":"x","name":1}`, "name: Extra inputs"},
		"not string":  {`{"ca_certificate_pem":1}`, "ca_certificate_pem"},
		"no such one": {pemBody(caPEM), ""},
	} {
		path := base
		if name == "no such one" {
			path = "/v1/tunnels/tnl_nope/certificates"
		}
		resp, rb := tunnelCall(t, s, "POST", path, tt.body)
		if name == "no such one" {
			wantError(t, resp, rb, http.StatusNotFound, wire.ErrNotFound, "tnl_nope")
			continue
		}
		wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, tt.msg)
		if strings.Contains(string(rb), "BEGIN") {
			t.Errorf("%s: the error quotes the PEM: %s", name, rb)
		}
	}

	if g := tunnelOK[tunnelCertificateWire](t, s, "GET", base+"/"+c1.ID, ""); g.ID != c1.ID || g.Fingerprint != c1.Fingerprint {
		t.Errorf("get %+v", g)
	}
	other := tunnelOK[tunnelWire](t, s, "POST", "/v1/tunnels", `{}`)
	resp, rb := tunnelCall(t, s, "GET", "/v1/tunnels/"+other.ID+"/certificates/"+c1.ID, "")
	wantError(t, resp, rb, http.StatusNotFound, wire.ErrNotFound, c1.ID)

	clock.Advance(time.Minute)
	a1 := tunnelOK[tunnelCertificateWire](t, s, "POST", base+"/"+c1.ID+"/archive", "")
	if a1.ArchivedAt == nil {
		t.Fatalf("archived %+v", a1)
	}
	clock.Advance(time.Minute)
	if again := tunnelOK[tunnelCertificateWire](t, s, "POST", base+"/"+c1.ID+"/archive", ""); *again.ArchivedAt != *a1.ArchivedAt {
		t.Errorf("archive again %+v", again)
	}
	if ids := tunnelIDs(t, s, base); len(ids) != 1 || ids[0] != c2.ID {
		t.Errorf("list %v", ids)
	}
	if ids := tunnelIDs(t, s, base+"?include_archived=true&limit=1"); len(ids) != 2 || ids[0] != c2.ID || ids[1] != c1.ID {
		t.Errorf("include_archived list %v (newest first)", ids)
	}

	// Archiving the tunnel archives its certificates and refuses new ones.
	tunnelOK[tunnelWire](t, s, "POST", "/v1/tunnels/"+tn.ID+"/archive", "")
	if g := tunnelOK[tunnelCertificateWire](t, s, "GET", base+"/"+c2.ID, ""); g.ArchivedAt == nil {
		t.Errorf("certificate of an archived tunnel %+v", g)
	}
	resp, rb = tunnelCall(t, s, "POST", base, pemBody(caPEM))
	wantError(t, resp, rb, http.StatusBadRequest, wire.ErrInvalidRequest, "archived")
}
