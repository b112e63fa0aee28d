package mms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// TestVaultGoldenRoundTrip: every record of §1.2 and §1.5, every auth kind
// and networking kind, Unknown kinds and unknown members, decode and
// re-encode losslessly.
func TestVaultGoldenRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"vault.json", nil},
		{"vault_unknown.json", nil},
	} {
		t.Run(tt.file, func(t *testing.T) { roundTrip[Vault](t, readGolden(t, "vaults", tt.file), tt.unknown) })
	}
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"credential_mcp_oauth.json", nil},
		{"credential_mcp_oauth_minimal.json", nil},
		{"credential_static_bearer.json", nil},
		{"credential_environment_variable.json", nil},
		{"credential_environment_variable_unrestricted.json", nil},
		{"credential_unknown.json", []string{".Auth: UnknownCredentialAuth"}},
		{"credential_unknown_members.json", nil},
		{"credential_unknown_networking.json", []string{".Auth.Networking: UnknownCredentialNetworking"}},
	} {
		t.Run(tt.file, func(t *testing.T) { roundTrip[VaultCredential](t, readGolden(t, "vaults", tt.file), tt.unknown) })
	}
	for _, file := range []string{"validation_valid.json", "validation_invalid.json", "validation_unknown.json"} {
		t.Run(file, func(t *testing.T) { roundTrip[VaultCredentialValidation](t, readGolden(t, "vaults", file), nil) })
	}
	t.Run("deleted.json", func(t *testing.T) {
		var pair [2]json.RawMessage
		if err := json.Unmarshal(readGolden(t, "vaults", "deleted.json"), &pair); err != nil {
			t.Fatal(err)
		}
		var v VaultDeleted
		var c VaultCredentialDeleted
		if err := json.Unmarshal(pair[0], &v); err != nil || v.ID != "vlt_1" {
			t.Errorf("vault deleted %+v %v", v, err)
		}
		if err := json.Unmarshal(pair[1], &c); err != nil || c.ID != "vcrd_1" {
			t.Errorf("credential deleted %+v %v", c, err)
		}
		for i, x := range []any{v, c} {
			out, err := json.Marshal(x)
			require.NoError(t, err)
			requireJSONEqual(t, pair[i], out)
		}
		// A deletion of the other kind is not taken for this one.
		if err := decodeInto(pair[1], &v); err == nil {
			t.Errorf("vault_credential_deleted decoded as VaultDeleted")
		}
	})
}

// TestVaultCredentialGoldenValues pins the typed values the goldens
// decode to.
func TestVaultCredentialGoldenValues(t *testing.T) {
	decode := func(file string) VaultCredential {
		var c VaultCredential
		if err := json.Unmarshal(readGolden(t, "vaults", file), &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	full := decode("credential_mcp_oauth.json")
	want := MCPOAuthAuth{MCPServerURL: "https://mcp.example.com/docs", ExpiresAt: Ptr("2026-05-01T00:00:00Z"),
		Refresh: &MCPOAuthRefresh{ClientID: "client-123", TokenEndpoint: "https://auth.example.com/oauth/token",
			TokenEndpointAuth: TokenEndpointAuth{Type: TokenEndpointAuthClientSecretBasicType}, Resource: Ptr("https://mcp.example.com"), Scope: Ptr("read write")}}
	if diff := cmp.Diff(VaultCredentialAuth(want), full.Auth); diff != "" || *full.DisplayName != "Docs server" {
		t.Errorf("mcp_oauth (-want +got):\n%s", diff)
	}
	minimal := decode("credential_mcp_oauth_minimal.json")
	if a := minimal.Auth.(MCPOAuthAuth); minimal.DisplayName != nil || a.ExpiresAt != nil || a.Refresh.Resource != nil ||
		a.Refresh.TokenEndpointAuth.Type != TokenEndpointAuthNoneType {
		t.Errorf("minimal %+v %+v", minimal, a)
	}
	if c := decode("credential_static_bearer.json"); c.DisplayName != nil || c.ArchivedAt == nil ||
		!cmp.Equal(c.Auth, VaultCredentialAuth(StaticBearerAuth{MCPServerURL: "https://mcp.example.com/b"})) {
		t.Errorf("static_bearer %+v", c)
	}
	env := decode("credential_environment_variable.json").Auth.(EnvironmentVariableAuth)
	if diff := cmp.Diff(EnvironmentVariableAuth{SecretName: "EXAMPLE_API_KEY",
		Networking:        CredentialNetworkingLimited{AllowedHosts: []string{"api.example.com", "*.example.org", "10.0.0.7"}},
		InjectionLocation: &CredentialInjectionLocation{Body: Ptr(false), Header: Ptr(true)}}, env); diff != "" {
		t.Errorf("environment_variable (-want +got):\n%s", diff)
	}
	members := decode("credential_unknown_members.json").Auth.(MCPOAuthAuth)
	if members.Refresh.TokenEndpointAuth.Type != "private_key_jwt" || members.Extra["granted_scopes"] == nil || members.Refresh.Extra["audience"] == nil {
		t.Errorf("unknown members %+v", members)
	}
	var val VaultCredentialValidation
	if err := json.Unmarshal(readGolden(t, "vaults", "validation_invalid.json"), &val); err != nil {
		t.Fatal(err)
	}
	if val.Status != VaultCredentialInvalid || val.MCPProbe.Method != "initialize" || !val.MCPProbe.HTTPResponse.BodyTruncated ||
		val.Refresh.Status != VaultCredentialRefreshNoRefreshToken || val.Refresh.HTTPResponse != nil {
		t.Errorf("validation %+v", val)
	}
}

// TestVaultRequestForms pins what each params type sends: every auth kind
// in create and update form, the Update states, and no member of a
// decoded record (its unknown members included) going back into a
// request.
func TestVaultRequestForms(t *testing.T) {
	exp := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	var rec VaultCredential
	if err := json.Unmarshal(readGolden(t, "vaults", "credential_unknown_networking.json"), &rec); err != nil {
		t.Fatal(err)
	}
	recEnv := rec.Auth.(EnvironmentVariableAuth)
	var lim VaultCredential
	if err := json.Unmarshal(readGolden(t, "vaults", "credential_environment_variable.json"), &lim); err != nil {
		t.Fatal(err)
	}
	limited := lim.Auth.(EnvironmentVariableAuth).Networking.(CredentialNetworkingLimited)
	limited.Extra = map[string]json.RawMessage{"from_record": json.RawMessage(`1`)}
	for _, tt := range []struct {
		name string
		in   any
		want string
	}{
		{"vault create", VaultCreateParams{DisplayName: "v"}, `{"display_name":"v"}`},
		{"vault update", VaultUpdateParams{DisplayName: Clear[string](), Metadata: MetadataPatch{"a": nil}}, `{"display_name":null,"metadata":{"a":null}}`},
		{"empty vault update", VaultUpdateParams{}, `{}`},
		{"mcp_oauth", VaultCredentialCreateParams{DisplayName: "d", Auth: MCPOAuthAuthParams{MCPServerURL: "u", AccessToken: NewSecret("at"), ExpiresAt: exp,
			Refresh: MCPOAuthRefreshParams{ClientID: "c", RefreshToken: NewSecret("rt"), TokenEndpoint: "t", TokenEndpointAuth: TokenEndpointAuthClientSecretPost{ClientSecret: NewSecret("cs")}}}},
			`{"display_name":"d","auth":{"type":"mcp_oauth","mcp_server_url":"u","access_token":"at","expires_at":"2030-01-02T03:04:05Z",` +
				`"refresh":{"client_id":"c","refresh_token":"rt","token_endpoint":"t","token_endpoint_auth":{"type":"client_secret_post","client_secret":"cs"}}}}`},
		{"mcp_oauth minimal", VaultCredentialCreateParams{Auth: MCPOAuthAuthParams{MCPServerURL: "u", AccessToken: NewSecret("at")}},
			`{"auth":{"type":"mcp_oauth","mcp_server_url":"u","access_token":"at"}}`},
		{"static_bearer", VaultCredentialCreateParams{Auth: StaticBearerAuthParams{MCPServerURL: "u", Token: NewSecret("t")}},
			`{"auth":{"type":"static_bearer","mcp_server_url":"u","token":"t"}}`},
		{"environment_variable, record networking in request form", VaultCredentialCreateParams{Auth: EnvironmentVariableAuthParams{SecretName: "K", SecretValue: NewSecret("v"),
			Networking: limited, InjectionLocation: recEnv.InjectionLocation}},
			`{"auth":{"type":"environment_variable","secret_name":"K","secret_value":"v","networking":{"type":"limited",` +
				`"allowed_hosts":["api.example.com","*.example.org","10.0.0.7"]},"injection_location":{"header":true}}}`},
		{"unknown kind sent as it came", VaultCredentialCreateParams{Auth: UnknownCredentialAuth{Type: "x", Raw: json.RawMessage(`{"type":"x","k":1}`)}},
			`{"auth":{"type":"x","k":1}}`},
		{"empty credential update", VaultCredentialUpdateParams{}, `{}`},
		{"mcp_oauth update", VaultCredentialUpdateParams{DisplayName: Set("n"), Auth: MCPOAuthAuthUpdateParams{AccessToken: NewSecret("at"),
			ExpiresAt: Set(exp), Refresh: Set(MCPOAuthRefreshUpdateParams{RefreshToken: NewSecret("rt"), Scope: Set("s"),
				TokenEndpointAuth: TokenEndpointAuthClientSecretBasic{ClientSecret: NewSecret("cs")}})}},
			`{"display_name":"n","auth":{"type":"mcp_oauth","access_token":"at","expires_at":"2030-01-02T03:04:05Z",` +
				`"refresh":{"refresh_token":"rt","scope":"s","token_endpoint_auth":{"type":"client_secret_basic","client_secret":"cs"}}}}`},
		{"mcp_oauth update clears", VaultCredentialUpdateParams{DisplayName: Clear[string](), Auth: MCPOAuthAuthUpdateParams{
			ExpiresAt: Clear[time.Time](), Refresh: Clear[MCPOAuthRefreshUpdateParams]()}},
			`{"display_name":null,"auth":{"type":"mcp_oauth","expires_at":null,"refresh":null}}`},
		{"refresh update, secret left out", VaultCredentialUpdateParams{Auth: MCPOAuthAuthUpdateParams{Refresh: Set(MCPOAuthRefreshUpdateParams{
			Scope: Clear[string](), TokenEndpointAuth: TokenEndpointAuthClientSecretPost{}})}},
			`{"auth":{"type":"mcp_oauth","refresh":{"scope":null,"token_endpoint_auth":{"type":"client_secret_post"}}}}`},
		{"static_bearer update", VaultCredentialUpdateParams{Auth: StaticBearerAuthUpdateParams{Token: NewSecret("t")}},
			`{"auth":{"type":"static_bearer","token":"t"}}`},
		{"empty static_bearer update", VaultCredentialUpdateParams{Auth: StaticBearerAuthUpdateParams{}}, `{"auth":{"type":"static_bearer"}}`},
		{"environment_variable update", VaultCredentialUpdateParams{Auth: EnvironmentVariableAuthUpdateParams{SecretValue: NewSecret("v"),
			Networking: Set[CredentialNetworking](CredentialNetworkingUnrestricted{}), InjectionLocation: &CredentialInjectionLocation{Body: Ptr(true)}}},
			`{"auth":{"type":"environment_variable","secret_value":"v","networking":{"type":"unrestricted"},"injection_location":{"body":true}}}`},
		{"environment_variable update clears networking", VaultCredentialUpdateParams{Auth: EnvironmentVariableAuthUpdateParams{
			Networking: Clear[CredentialNetworking]()}}, `{"auth":{"type":"environment_variable","networking":null}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), got)
			body, err := codec.MarshalRequest(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), body)
			// A request form decodes back to the same params.
			back := reflect.New(reflect.TypeOf(tt.in))
			if err := json.Unmarshal(got, back.Interface()); err != nil {
				t.Fatal(err)
			}
			again, err := json.Marshal(back.Elem().Interface())
			require.NoError(t, err)
			requireJSONEqual(t, got, again)
		})
	}
}

// secretParams builds every params type that carries a secret, each
// secret a recognisable value.
func secretParams() []any {
	refresh := MCPOAuthRefreshParams{ClientID: "c", RefreshToken: NewSecret("SeCrEt-refresh"), TokenEndpoint: "t",
		TokenEndpointAuth: TokenEndpointAuthClientSecretBasic{ClientSecret: NewSecret("SeCrEt-client")}}
	create := []VaultCredentialAuthParams{
		MCPOAuthAuthParams{MCPServerURL: "u", AccessToken: NewSecret("SeCrEt-access"), Refresh: refresh},
		StaticBearerAuthParams{MCPServerURL: "u", Token: NewSecret("SeCrEt-token")},
		EnvironmentVariableAuthParams{SecretName: "K", SecretValue: NewSecret("SeCrEt-value"), Networking: CredentialNetworkingUnrestricted{}},
	}
	update := []VaultCredentialAuthUpdateParams{
		MCPOAuthAuthUpdateParams{AccessToken: NewSecret("SeCrEt-access"), Refresh: Set(MCPOAuthRefreshUpdateParams{RefreshToken: NewSecret("SeCrEt-refresh"),
			TokenEndpointAuth: TokenEndpointAuthClientSecretPost{ClientSecret: NewSecret("SeCrEt-client")}})},
		StaticBearerAuthUpdateParams{Token: NewSecret("SeCrEt-token")},
		EnvironmentVariableAuthUpdateParams{SecretValue: NewSecret("SeCrEt-value")},
	}
	var out []any
	for _, a := range create {
		out = append(out, VaultCredentialCreateParams{Auth: a}, a)
	}
	for _, a := range update {
		out = append(out, VaultCredentialUpdateParams{Auth: a}, a)
	}
	return append(out, refresh, &refresh, Set(refresh), update[0].(MCPOAuthAuthUpdateParams).Refresh,
		TokenEndpointAuthClientSecretPost{ClientSecret: NewSecret("SeCrEt-client")})
}

// TestVaultSecretsNeverPrinted formats every params type that carries a
// secret with %v, %+v, %#v and %s, and logs it with slog's text and JSON
// handlers (JSON: each type with a LogValue): the secret never shows. (fmt reaches an Update's value
// through an unexported field, whose methods it does not call: Update's
// Format is what keeps a Secret inside redacted.)
func TestVaultSecretsNeverPrinted(t *testing.T) {
	for _, p := range secretParams() {
		for _, format := range []string{"%v", "%+v", "%#v", "%s"} {
			if got := fmt.Sprintf(format, p); strings.Contains(got, "SeCrEt") {
				t.Errorf("%s of %T shows a secret: %s", format, p, got)
			}
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("call", "params", p)
		if _, ok := p.(slog.LogValuer); ok {
			// A bare Update has no LogValue: slog's JSON handler would
			// marshal its wire form (the params holding one redact it).
			slog.New(slog.NewJSONHandler(&buf, nil)).Info("call", "params", p)
		}
		if strings.Contains(buf.String(), "SeCrEt") {
			t.Errorf("slog of %T shows a secret: %s", p, buf.String())
		}
		// The wire form carries them.
		body, err := codec.MarshalRequest(p)
		if err != nil || !strings.Contains(string(body), "SeCrEt") {
			t.Errorf("%T wire form %s %v", p, body, err)
		}
	}
	if got := fmt.Sprintf("%v %v %+v", Update[string]{}, Clear[string](), Set(NewSecret("SeCrEt"))); got != "<keep> null <redacted>" {
		t.Errorf("Update formats as %q", got)
	}
}

// TestVaultValidationErrorsHoldNoSecret: every rule a secret can break
// reports its field and never its value.
func TestVaultValidationErrorsHoldNoSecret(t *testing.T) {
	long := NewSecret("SeCrEt" + strings.Repeat("x", 9000))
	now := time.Now()
	for _, p := range []interface{ validate(time.Time) error }{
		VaultCredentialCreateParams{Auth: MCPOAuthAuthParams{MCPServerURL: "u", AccessToken: long}},
		VaultCredentialUpdateParams{Auth: MCPOAuthAuthUpdateParams{AccessToken: long}},
		VaultCredentialCreateParams{Auth: MCPOAuthAuthParams{MCPServerURL: "u", AccessToken: NewSecret("SeCrEt"), ExpiresAt: now.Add(-time.Hour)}},
		VaultCredentialCreateParams{Auth: MCPOAuthAuthParams{MCPServerURL: "u", AccessToken: NewSecret("SeCrEt"), Refresh: MCPOAuthRefreshParams{
			RefreshToken: NewSecret("SeCrEt"), TokenEndpointAuth: TokenEndpointAuthClientSecretBasic{ClientSecret: NewSecret("SeCrEt")}}}},
		VaultCredentialCreateParams{Auth: StaticBearerAuthParams{Token: NewSecret("SeCrEt")}},
		VaultCredentialCreateParams{Auth: EnvironmentVariableAuthParams{SecretValue: NewSecret("SeCrEt")}},
		VaultCredentialCreateParams{Auth: EnvironmentVariableAuthParams{SecretName: "K", SecretValue: NewSecret("SeCrEt"),
			Networking: CredentialNetworkingLimited{AllowedHosts: []string{"a:1"}}}},
	} {
		err := p.validate(now)
		if err == nil {
			t.Errorf("%T passed", p)
			continue
		}
		if strings.Contains(err.Error(), "SeCrEt") {
			t.Errorf("error shows a secret: %v", err)
		}
	}
}

func FuzzVaultCredential(f *testing.F) {
	for _, name := range []string{"credential_mcp_oauth.json", "credential_mcp_oauth_minimal.json", "credential_static_bearer.json",
		"credential_environment_variable.json", "credential_environment_variable_unrestricted.json", "credential_unknown.json",
		"credential_unknown_members.json", "credential_unknown_networking.json"} {
		f.Add(readGolden(f, "vaults", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[VaultCredential](t, data) })
}

func FuzzVault(f *testing.F) {
	f.Add(readGolden(f, "vaults", "vault.json"))
	f.Add(readGolden(f, "vaults", "vault_unknown.json"))
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[Vault](t, data) })
}

func FuzzVaultCredentialValidation(f *testing.F) {
	for _, name := range []string{"validation_valid.json", "validation_invalid.json", "validation_unknown.json"} {
		f.Add(readGolden(f, "vaults", name))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkRecordRoundTrip[VaultCredentialValidation](t, data) })
}

func FuzzVaultCredentialAuth(f *testing.F) {
	fuzzDecoder(f, vaultCredentialAuthUnion.Decode,
		`{"type":"mcp_oauth","mcp_server_url":"u","expires_at":null,"refresh":{"client_id":"c","token_endpoint":"t","token_endpoint_auth":{"type":"none"},"scope":null}}`,
		`{"type":"static_bearer","mcp_server_url":"u"}`,
		`{"type":"environment_variable","secret_name":"K","networking":{"type":"limited","allowed_hosts":["h"]},"injection_location":{"body":true}}`,
		`{"type":"other","x":1}`)
}

func FuzzVaultCredentialAuthParams(f *testing.F) {
	fuzzDecoder(f, vaultCredentialAuthParamsUnion.Decode,
		`{"type":"mcp_oauth","mcp_server_url":"u","access_token":"a","expires_at":"2030-01-01T00:00:00Z","refresh":{"client_id":"c","refresh_token":"r","token_endpoint":"t","token_endpoint_auth":{"type":"client_secret_basic","client_secret":"s"}}}`,
		`{"type":"static_bearer","mcp_server_url":"u","token":"t"}`,
		`{"type":"environment_variable","secret_name":"K","secret_value":"v","networking":{"type":"unrestricted"}}`)
}

func FuzzVaultCredentialAuthUpdateParams(f *testing.F) {
	fuzzDecoder(f, vaultCredentialAuthUpdateUnion.Decode,
		`{"type":"mcp_oauth","access_token":"a","expires_at":null,"refresh":{"refresh_token":"r","scope":null,"token_endpoint_auth":{"type":"client_secret_post"}}}`,
		`{"type":"static_bearer","token":"t"}`,
		`{"type":"environment_variable","secret_value":"v","networking":null,"injection_location":{"header":false}}`)
}

func FuzzCredentialNetworking(f *testing.F) {
	fuzzDecoder(f, credentialNetworkingUnion.Decode, `{"type":"unrestricted"}`, `{"type":"limited","allowed_hosts":["a","*.b"]}`, `{"type":"x"}`)
}

func FuzzTokenEndpointAuthParams(f *testing.F) {
	fuzzDecoder(f, tokenEndpointAuthParamsUnion.Decode, `{"type":"none"}`,
		`{"type":"client_secret_basic","client_secret":"s"}`, `{"type":"client_secret_post"}`, `{"type":"private_key_jwt"}`)
}
