package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// TestTunnelGoldenRoundTrip: every record of §1.2, with nulls, archived
// states and unknown members, decodes and re-encodes losslessly.
func TestTunnelGoldenRoundTrip(t *testing.T) {
	for _, f := range []string{"tunnel.json", "tunnel_archived_unknown.json"} {
		t.Run(f, func(t *testing.T) { roundTrip[Tunnel](t, readGolden(t, "tunnels", f), nil) })
	}
	for _, f := range []string{"token.json", "token_unknown.json"} {
		t.Run(f, func(t *testing.T) { roundTrip[TunnelToken](t, readGolden(t, "tunnels", f), nil) })
	}
	for _, f := range []string{"certificate.json", "certificate_archived_unknown.json"} {
		t.Run(f, func(t *testing.T) { roundTrip[TunnelCertificate](t, readGolden(t, "tunnels", f), nil) })
	}
}

// TestTunnelGoldenValues pins the typed values the goldens decode to.
func TestTunnelGoldenValues(t *testing.T) {
	var tn, old Tunnel
	var tok TunnelToken
	var crt, arch TunnelCertificate
	for _, x := range []struct {
		file string
		v    any
	}{
		{"tunnel.json", &tn}, {"tunnel_archived_unknown.json", &old}, {"token_unknown.json", &tok},
		{"certificate.json", &crt}, {"certificate_archived_unknown.json", &arch},
	} {
		if err := json.Unmarshal(readGolden(t, "tunnels", x.file), x.v); err != nil {
			t.Fatalf("%s: %v", x.file, err)
		}
	}
	if diff := cmp.Diff(Tunnel{ID: "tnl_011CZkZbCDxW8aK5ZZmcs7Gf", DisplayName: Ptr("Internal MCP servers"),
		Domain: "k3x9q2.tunnels.example.com", CreatedAt: "2026-06-22T10:00:00Z"}, tn); diff != "" {
		t.Errorf("tunnel (-want +got):\n%s", diff)
	}
	if old.DisplayName != nil || old.ArchivedAt == nil || len(old.Extra) != 2 || old.Extra["connection"] == nil {
		t.Errorf("archived tunnel %+v", old)
	}
	if created, err := old.Created(); err != nil || created.Nanosecond() != 123456000 {
		t.Errorf("Created %v %v", created, err)
	}
	if tok.TunnelToken.Reveal() != "SeCrEt-tnl-a1b2c3" || tok.ID != "tnltok_02" || tok.Extra["rotated_from"] == nil {
		t.Errorf("token %+v", tok)
	}
	if crt.ExpiresAt == nil || *crt.ExpiresAt != "2031-06-22T00:00:00Z" || crt.ArchivedAt != nil || len(crt.Fingerprint) != 64 {
		t.Errorf("certificate %+v", crt)
	}
	if arch.ExpiresAt != nil || arch.ArchivedAt == nil || arch.Extra["subject"] == nil {
		t.Errorf("archived certificate %+v", arch)
	}
	// A record of another type is not taken for this one.
	if err := decodeInto(readGolden(t, "tunnels", "certificate.json"), &tn); err == nil {
		t.Errorf("tunnel_certificate decoded as a Tunnel")
	}
}

// TestTunnelRequestForms pins what each params type sends, and that the
// request form decodes back to the same params.
func TestTunnelRequestForms(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   any
		want string
	}{
		{"create", TunnelCreateParams{DisplayName: Ptr("edge")}, `{"display_name":"edge"}`},
		{"create unnamed", TunnelCreateParams{}, `{}`},
		{"rotate", TunnelRotateTokenParams{Reason: Ptr("leaked")}, `{"reason":"leaked"}`},
		{"rotate, empty reason sent", TunnelRotateTokenParams{Reason: Ptr("")}, `{"reason":""}`},
		{"rotate without reason", TunnelRotateTokenParams{}, `{}`},
		{"certificate", TunnelCertificateCreateParams{CACertificatePEM: "-----BEGIN CERTIFICATE-----\n<&>\n"},
			`{"ca_certificate_pem":"-----BEGIN CERTIFICATE-----\n<&>\n"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), got)
			body, err := codec.MarshalRequest(tt.in)
			require.NoError(t, err)
			if string(body) != tt.want {
				t.Errorf("request body %s, want %s", body, tt.want)
			}
			back := reflect.New(reflect.TypeOf(tt.in))
			if err := json.Unmarshal(got, back.Interface()); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.in, back.Elem().Interface()); diff != "" {
				t.Errorf("decoded back (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTunnelTokenNeverPrinted: a TunnelToken (value or pointer, alone or
// in a slice) shows its secret in no fmt verb and no slog handler, while
// its JSON carries it.
func TestTunnelTokenNeverPrinted(t *testing.T) {
	var tok TunnelToken
	if err := json.Unmarshal(readGolden(t, "tunnels", "token.json"), &tok); err != nil {
		t.Fatal(err)
	}
	const secret = "SeCrEt-tnl-0f9c2b7d1e"
	for _, v := range []any{tok, &tok, []TunnelToken{tok}, tok.TunnelToken} {
		for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
			if got := fmt.Sprintf(format, v); strings.Contains(got, "SeCrEt") {
				t.Errorf("%s of %T shows the token: %s", format, v, got)
			}
		}
	}
	for _, v := range []any{tok, &tok} {
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("tunnel", "token", v)
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("tunnel", "token", v)
		slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})).Debug("tunnel", slog.Any("token", v))
		if strings.Contains(buf.String(), "SeCrEt") {
			t.Errorf("slog of %T shows the token: %s", v, buf.String())
		}
	}
	if out, err := json.Marshal(tok); err != nil || !strings.Contains(string(out), secret) {
		t.Errorf("JSON %s %v, want the token", out, err)
	}
}

// TestTunnelTokenNotInDecodeErrors: a token reply that fails to decode
// names the problem without the token.
func TestTunnelTokenNotInDecodeErrors(t *testing.T) {
	for _, in := range []string{
		`{"id":1,"type":"tunnel_token","tunnel_token":"SeCrEt-1"}`,
		`{"id":"t","type":"tunnel","tunnel_token":"SeCrEt-1"}`,
		`{"id":"t","type":"tunnel_token","tunnel_token":"SeCrEt-1","extra":}`,
		`{"id":"t","type":"tunnel_token","tunnel_token":"SeCrEt-1\x01"}`,
		`{"id":"t","type":"tunnel_token","tunnel_token":["SeCrEt-1"]}`,
		`{"id":"t","type":"tunnel_token","tunnel_token":"SeCrEt-1"`,
	} {
		var tok TunnelToken
		err := json.Unmarshal([]byte(in), &tok)
		if err == nil {
			err = decodeInto([]byte(in), &tok)
		}
		if err == nil {
			t.Errorf("%s decoded", in)
			continue
		}
		if strings.Contains(err.Error(), "SeCrEt") {
			t.Errorf("decode error shows the token: %v", err)
		}
	}
}

func FuzzTunnel(f *testing.F) {
	for _, name := range []string{"tunnel.json", "tunnel_archived_unknown.json"} {
		f.Add(readGolden(f, "tunnels", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[Tunnel](t, data) })
}

func FuzzTunnelToken(f *testing.F) {
	for _, name := range []string{"token.json", "token_unknown.json"} {
		f.Add(readGolden(f, "tunnels", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[TunnelToken](t, data) })
}

func FuzzTunnelCertificate(f *testing.F) {
	for _, name := range []string{"certificate.json", "certificate_archived_unknown.json"} {
		f.Add(readGolden(f, "tunnels", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[TunnelCertificate](t, data) })
}
