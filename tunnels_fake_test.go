package mms_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestTunnelsAgainstFake runs every tunnels operation against mmstest:
// every request shape the SDK builds is accepted, tokens reveal and rotate,
// and archiving is final.
func TestTunnelsAgainstFake(t *testing.T) {
	now := fakeNow
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()

	a, err := c.Tunnels.Create(ctx, mms.TunnelCreateParams{DisplayName: mms.Ptr("edge")})
	require.NoError(t, err)
	if !strings.HasPrefix(a.ID, "tnl_") || *a.DisplayName != "edge" || a.Domain == "" || a.ArchivedAt != nil {
		t.Fatalf("created %+v", a)
	}
	if _, err := a.Created(); err != nil {
		t.Errorf("Created: %v", err)
	}
	now = now.Add(time.Minute)
	b, err := c.Tunnels.Create(ctx, mms.TunnelCreateParams{})
	if err != nil || b.DisplayName != nil || b.Domain == a.Domain {
		t.Fatalf("unnamed %+v %v", b, err)
	}
	if g, err := c.Tunnels.Get(ctx, a.ID); err != nil || !cmp.Equal(g, a) {
		t.Errorf("Get: %+v %v", g, err)
	}

	t1, err := c.Tunnels.RevealToken(ctx, a.ID)
	if err != nil || t1.ID == "" || t1.TunnelToken.IsZero() {
		t.Fatalf("reveal %+v %v", t1, err)
	}
	if again, err := c.Tunnels.RevealToken(ctx, a.ID); err != nil || !cmp.Equal(again, t1) {
		t.Errorf("second reveal %+v %v", again, err)
	}
	t2, err := c.Tunnels.RotateToken(ctx, a.ID, mms.TunnelRotateTokenParams{Reason: mms.Ptr("leaked in a log")})
	if err != nil || t2.ID == t1.ID || t2.TunnelToken == t1.TunnelToken {
		t.Fatalf("rotate %+v %v", t2, err)
	}
	if _, err := c.Tunnels.RotateToken(ctx, a.ID, mms.TunnelRotateTokenParams{}); err != nil {
		t.Fatal(err)
	}
	if got := srv.TunnelRotationReasons(a.ID); !cmp.Equal(got, []string{"leaked in a log", ""}) {
		t.Errorf("reasons %q", got)
	}

	now = now.Add(time.Minute)
	ar, err := c.Tunnels.Archive(ctx, a.ID)
	if err != nil || ar.ArchivedAt == nil {
		t.Fatalf("Archive: %+v %v", ar, err)
	}
	if again, err := c.Tunnels.Archive(ctx, a.ID); err != nil || !cmp.Equal(again, ar) {
		t.Errorf("archive again %+v %v", again, err)
	}
	for name, call := range map[string]func() error{
		"reveal": func() error { _, err := c.Tunnels.RevealToken(ctx, a.ID); return err },
		"rotate": func() error { _, err := c.Tunnels.RotateToken(ctx, a.ID, mms.TunnelRotateTokenParams{}); return err },
	} {
		err := call()
		var apiErr *mms.Error
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || !strings.Contains(err.Error(), "archived") {
			t.Errorf("%s on an archived tunnel: %v", name, err)
		}
		if err != nil && strings.Contains(err.Error(), t2.TunnelToken.Reveal()) {
			t.Errorf("%s error shows a token", name)
		}
	}

	list := func(p mms.TunnelListParams) []string {
		t.Helper()
		var ids []string
		for x, err := range c.Tunnels.List(ctx, p) {
			require.NoError(t, err)
			ids = append(ids, x.ID)
		}
		return ids
	}
	if got := list(mms.TunnelListParams{}); !cmp.Equal(got, []string{b.ID}) {
		t.Errorf("list %v", got)
	}
	if got := list(mms.TunnelListParams{IncludeArchived: true, Limit: 1}); !cmp.Equal(got, []string{b.ID, a.ID}) {
		t.Errorf("list archived %v", got)
	}
	if p, err := c.Tunnels.ListPage(ctx, mms.TunnelListParams{IncludeArchived: true, Limit: 1}); err != nil || len(p.Data) != 1 || p.NextPage == nil {
		t.Errorf("ListPage %+v %v", p, err)
	}
	if _, err := c.Tunnels.Get(ctx, "tnl_nope"); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get unknown: %v", err)
	}
	var apiErr *mms.Error
	if _, err := c.Tunnels.Get(ctx, b.ID, option.WithoutEndpointBeta(mms.BetaMCPTunnels)); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("without the beta: %v", err)
	}
}

// TestTunnelCertificatesAgainstFake adds, reads, lists and archives
// certificates against mmstest; the fake's fingerprint and expiry are the
// certificate's own.
func TestTunnelCertificatesAgainstFake(t *testing.T) {
	now := fakeNow
	srv := mmstest.NewServer(mmstest.WithClock(func() time.Time { return now }))
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	tc := c.Tunnels.Certificates
	pems := makeTestPEMs(t)
	tn, err := c.Tunnels.Create(ctx, mms.TunnelCreateParams{})
	require.NoError(t, err)

	c1, err := tc.Create(ctx, tn.ID, mms.TunnelCertificateCreateParams{CACertificatePEM: pems.ca})
	require.NoError(t, err)
	blk, _ := pem.Decode([]byte(pems.ca))
	cert, err := x509.ParseCertificate(blk.Bytes)
	require.NoError(t, err)
	sum := sha256.Sum256(blk.Bytes)
	if !strings.HasPrefix(c1.ID, "tcrt_") || c1.TunnelID != tn.ID || c1.Fingerprint != hex.EncodeToString(sum[:]) ||
		c1.ExpiresAt == nil || *c1.ExpiresAt != cert.NotAfter.UTC().Format(time.RFC3339) || c1.ArchivedAt != nil {
		t.Fatalf("created %+v", c1)
	}
	if _, err := c1.Created(); err != nil {
		t.Errorf("Created: %v", err)
	}
	now = now.Add(time.Minute)
	// The largest PEM the SDK lets through is accepted.
	c2, err := tc.Create(ctx, tn.ID, mms.TunnelCertificateCreateParams{CACertificatePEM: padPEM(pems.ca2, 8192)})
	require.NoError(t, err)
	if g, err := tc.Get(ctx, tn.ID, c1.ID); err != nil || !cmp.Equal(g, c1) {
		t.Errorf("Get: %+v %v", g, err)
	}
	if _, err := tc.Get(ctx, tn.ID, "tcrt_nope"); !errors.Is(err, mms.ErrNotFound) {
		t.Errorf("Get unknown: %v", err)
	}
	now = now.Add(time.Minute)
	if ar, err := tc.Archive(ctx, tn.ID, c1.ID); err != nil || ar.ArchivedAt == nil {
		t.Fatalf("Archive: %+v %v", ar, err)
	}
	ids := func(p mms.TunnelCertificateListParams) []string {
		t.Helper()
		var out []string
		for x, err := range tc.List(ctx, tn.ID, p) {
			require.NoError(t, err)
			out = append(out, x.ID)
		}
		return out
	}
	if got := ids(mms.TunnelCertificateListParams{}); !cmp.Equal(got, []string{c2.ID}) {
		t.Errorf("list %v", got)
	}
	if got := ids(mms.TunnelCertificateListParams{IncludeArchived: true, Limit: 1}); !cmp.Equal(got, []string{c2.ID, c1.ID}) {
		t.Errorf("list archived %v", got)
	}
	if p, err := tc.ListPage(ctx, tn.ID, mms.TunnelCertificateListParams{}); err != nil || len(p.Data) != 1 {
		t.Errorf("ListPage %+v %v", p, err)
	}

	// Archiving the tunnel archives its certificates and refuses new ones.
	if _, err := c.Tunnels.Archive(ctx, tn.ID); err != nil {
		t.Fatal(err)
	}
	if g, err := tc.Get(ctx, tn.ID, c2.ID); err != nil || g.ArchivedAt == nil {
		t.Errorf("certificate of an archived tunnel %+v %v", g, err)
	}
	var apiErr *mms.Error
	if _, err := tc.Create(ctx, tn.ID, mms.TunnelCertificateCreateParams{CACertificatePEM: pems.ca}); !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Errorf("certificate for an archived tunnel: %v", err)
	}
}

// TestTunnelTokenNotLogged: with debug logging on, revealing, rotating and
// failing to reveal a token put it in no log line and no error.
func TestTunnelTokenNotLogged(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := filesClient(t, srv, option.WithMaxRetries(0), option.WithLogger(logger))
	ctx := context.Background()
	tn, err := c.Tunnels.Create(ctx, mms.TunnelCreateParams{})
	require.NoError(t, err)
	var tokens []string
	for _, call := range []func() (*mms.TunnelToken, error){
		func() (*mms.TunnelToken, error) { return c.Tunnels.RevealToken(ctx, tn.ID) },
		func() (*mms.TunnelToken, error) {
			return c.Tunnels.RotateToken(ctx, tn.ID, mms.TunnelRotateTokenParams{Reason: mms.Ptr("test")})
		},
	} {
		tok, err := call()
		require.NoError(t, err)
		logger.Info("got a token", "token", tok)
		tokens = append(tokens, tok.TunnelToken.Reveal())
	}
	if _, err := c.Tunnels.Archive(ctx, tn.ID); err != nil {
		t.Fatal(err)
	}
	_, err1 := c.Tunnels.RevealToken(ctx, tn.ID)
	_, err2 := c.Tunnels.RotateToken(ctx, tn.ID, mms.TunnelRotateTokenParams{})
	for _, err := range []error{err1, err2} {
		var apiErr *mms.Error
		if !errors.As(err, &apiErr) {
			t.Fatalf("want an *mms.Error, got %v", err)
		}
		for _, tok := range tokens {
			if strings.Contains(err.Error(), tok) || bytes.Contains(apiErr.Body, []byte(tok)) {
				t.Errorf("error shows a token: %v", err)
			}
		}
	}
	if !strings.Contains(logs.String(), "reveal_token") {
		t.Fatalf("requests were not logged: %s", logs.String())
	}
	for _, tok := range tokens {
		if tok == "" || strings.Contains(logs.String(), tok) {
			t.Errorf("a log line shows the token %q", tok)
		}
	}
}

// TestTunnelFakeAgreesWithValidation sends each certificate case and each
// display name limit past the SDK's checks (with Client.Do): mmstest
// refuses with a 400 exactly what the SDK refuses before sending.
func TestTunnelFakeAgreesWithValidation(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv, option.WithMaxRetries(0))
	ctx := context.Background()
	tn, err := c.Tunnels.Create(ctx, mms.TunnelCreateParams{})
	require.NoError(t, err)
	send := func(path string, body any) error {
		return c.Do(ctx, "POST", path, body, nil, option.WithBeta(mms.BetaMCPTunnels))
	}
	check := func(name string, sdkErr, fakeErr error) {
		t.Helper()
		var apiErr *mms.Error
		switch {
		case sdkErr == nil && fakeErr != nil:
			t.Errorf("%s: the SDK accepts it, the fake refuses: %v", name, fakeErr)
		case sdkErr != nil && (!errors.As(fakeErr, &apiErr) || apiErr.StatusCode != 400):
			t.Errorf("%s: the SDK refuses it (%v), the fake answers %v", name, sdkErr, fakeErr)
		}
	}
	for _, tt := range pemCases(makeTestPEMs(t)) {
		p := mms.TunnelCertificateCreateParams{CACertificatePEM: tt.pem}
		check(tt.name, p.Validate(), send("/v1/tunnels/"+tn.ID+"/certificates", map[string]string{"ca_certificate_pem": tt.pem}))
	}
	for _, n := range []int{0, 1, 255, 256} {
		name := strings.Repeat("é", n)
		p := mms.TunnelCreateParams{DisplayName: &name}
		check(fmt.Sprintf("display name of %d", n), p.Validate(), send("/v1/tunnels", map[string]string{"display_name": name}))
	}
}
