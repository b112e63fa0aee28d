package mms

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mms-sdk/mms-go/internal/codec"

	"github.com/stretchr/testify/require"
)

// TestEnvironmentGoldenRoundTrip: every config, networking and work data
// variant, Unknown ones and unknown members, decoded and re-encoded
// losslessly.
func TestEnvironmentGoldenRoundTrip(t *testing.T) {
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"environment_cloud.json", nil},
		{"environment_self_hosted.json", nil},
		{"environment_unknown.json", []string{".Config.Networking: UnknownEnvironmentNetworking"}},
		{"environment_unknown_config.json", []string{".Config: UnknownEnvironmentConfig"}},
	} {
		t.Run(tt.file, func(t *testing.T) { roundTrip[Environment](t, readGolden(t, "environments", tt.file), tt.unknown) })
	}
	for _, tt := range []struct {
		file    string
		unknown []string
	}{
		{"work_session.json", nil},
		{"work_healthcheck.json", nil},
		{"work_unknown.json", []string{".Data: UnknownWorkData"}},
	} {
		t.Run(tt.file, func(t *testing.T) { roundTrip[Work](t, readGolden(t, "environments", tt.file), tt.unknown) })
	}
	t.Run("work_heartbeat.json", func(t *testing.T) {
		roundTrip[WorkHeartbeat](t, readGolden(t, "environments", "work_heartbeat.json"), nil)
	})
	t.Run("work_queue_stats.json", func(t *testing.T) {
		roundTrip[WorkQueueStats](t, readGolden(t, "environments", "work_queue_stats.json"), nil)
	})
}

// TestEnvironmentGoldenValues pins the typed values of the goldens.
func TestEnvironmentGoldenValues(t *testing.T) {
	var cloud Environment
	if err := json.Unmarshal(readGolden(t, "environments", "environment_cloud.json"), &cloud); err != nil {
		t.Fatal(err)
	}
	want := CloudEnvironmentConfig{
		Networking: LimitedNetworking{AllowedHosts: []string{"api.example.com", "pypi.org"}, AllowMCPServers: Ptr(true), AllowPackageManagers: Ptr(false)},
		Packages: &EnvironmentPackages{Type: "packages", Apt: []string{"ffmpeg"}, Cargo: []string{}, Gem: []string{},
			Go: []string{"golang.org/x/tools@v0.30.0"}, Npm: []string{"left-pad@1.3.0"}, Pip: []string{"pandas==2.2.0", "numpy"}},
	}
	if diff := cmp.Diff(EnvironmentConfig(want), cloud.Config); diff != "" || cloud.Scope != EnvironmentScopeOrganization {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	var sh Environment
	if err := json.Unmarshal(readGolden(t, "environments", "environment_self_hosted.json"), &sh); err != nil {
		t.Fatal(err)
	}
	if _, ok := sh.Config.(SelfHostedEnvironmentConfig); !ok || sh.Description != nil || sh.ArchivedAt == nil || sh.Scope != EnvironmentScopeAccount {
		t.Errorf("self-hosted %+v", sh)
	}
	var w Work
	if err := json.Unmarshal(readGolden(t, "environments", "work_session.json"), &w); err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(w.Data, WorkData(WorkSession{ID: "sesn_011CZ"})) || w.State != WorkStateActive || w.StoppedAt != nil {
		t.Errorf("work %+v", w)
	}
}

// TestWorkSecretRedacted: the secret is on the wire but never in fmt or
// slog output, and SessionCredentials decodes it; its errors never quote
// it.
func TestWorkSecretRedacted(t *testing.T) {
	var w Work
	if err := json.Unmarshal(readGolden(t, "environments", "work_session.json"), &w); err != nil {
		t.Fatal(err)
	}
	raw := (*w.Secret).Reveal()
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("work", "work", w, "secret", *w.Secret)
	for _, s := range []string{fmt.Sprintf("%v", w), fmt.Sprintf("%+v", w), fmt.Sprintf("%#v", w), logged.String()} {
		if strings.Contains(s, raw[:20]) || strings.Contains(s, "sk-session") {
			t.Errorf("secret printed: %s", s)
		}
	}
	creds, err := w.SessionCredentials()
	if err != nil || creds.SessionsToken.Reveal() != "sk-session-xyz" || creds.APIBaseURL != "https://api.example.com" {
		t.Fatalf("credentials %v %v", creds, err)
	}
	if s := fmt.Sprintf("%+v", creds); strings.Contains(s, "sk-session") {
		t.Errorf("credentials printed: %s", s)
	}
	padded := NewSecret(raw + "==")
	for _, tt := range []struct {
		name   string
		secret *Secret
		ok     bool
	}{
		{"padded", &padded, true},
		{"none", nil, false},
		{"not base64", Ptr(NewSecret("sk-ant-#$%")), false},
		{"not JSON", Ptr(NewSecret("c2stc2VjcmV0LXZhbHVl")), false}, // "sk-secret-value"
		{"no token", Ptr(NewSecret("e30")), false},                  // {}
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Work{Secret: tt.secret}.SessionCredentials()
			if (err == nil) != tt.ok {
				t.Fatalf("err %v", err)
			}
			if err != nil && (strings.Contains(err.Error(), "sk-") || tt.secret != nil && strings.Contains(err.Error(), (*tt.secret).Reveal())) {
				t.Errorf("error quotes the secret: %v", err)
			}
		})
	}
}

// TestEnvironmentRequestForms pins what the params send: the three update
// states, a cloud config carrying only networking or only packages.pip,
// and no unknown member of a decoded record going back.
func TestEnvironmentRequestForms(t *testing.T) {
	var rec Environment
	if err := json.Unmarshal(readGolden(t, "environments", "environment_unknown.json"), &rec); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		in   any
		want string
	}{
		{"minimal create", EnvironmentCreateParams{Name: "e"}, `{"name":"e"}`},
		{"full create", EnvironmentCreateParams{Name: "e", Description: "d", Scope: EnvironmentScopeAccount, Metadata: map[string]string{"k": "v"},
			Config: CloudEnvironmentConfig{Networking: UnrestrictedNetworking{}, Packages: &EnvironmentPackages{Apt: []string{"git"}, Npm: []string{}}}},
			`{"name":"e","description":"d","config":{"type":"cloud","networking":{"type":"unrestricted"},"packages":{"apt":["git"],"npm":[]}},"scope":"account","metadata":{"k":"v"}}`},
		{"self hosted", EnvironmentCreateParams{Name: "e", Config: SelfHostedEnvironmentConfig{}}, `{"name":"e","config":{"type":"self_hosted"}}`},
		{"empty update", EnvironmentUpdateParams{}, `{}`},
		{"update clears", EnvironmentUpdateParams{Description: Clear[string](), Config: Clear[EnvironmentConfig](), Scope: Clear[EnvironmentScope](),
			Metadata: MetadataPatch{}.Delete("old").Set("new", "v")},
			`{"description":null,"config":null,"scope":null,"metadata":{"old":null,"new":"v"}}`},
		{"only networking", EnvironmentUpdateParams{Config: Set[EnvironmentConfig](CloudEnvironmentConfig{
			Networking: LimitedNetworking{AllowedHosts: []string{"a.example"}, AllowMCPServers: Ptr(false)}})},
			`{"config":{"type":"cloud","networking":{"type":"limited","allowed_hosts":["a.example"],"allow_mcp_servers":false}}}`},
		{"only pip", EnvironmentUpdateParams{Name: "n", Config: Set[EnvironmentConfig](CloudEnvironmentConfig{Packages: &EnvironmentPackages{Pip: []string{"x==1"}}})},
			`{"name":"n","config":{"type":"cloud","packages":{"pip":["x==1"]}}}`},
		{"decoded config goes back in request form", EnvironmentUpdateParams{Config: Set(rec.Config)},
			`{"config":{"type":"cloud","networking":{"type":"vpc_peered","vpc":"vpc-1"},"packages":{"apt":null,"pip":["x"]}}}`},
		{"work update", WorkUpdateParams{Metadata: MetadataPatch{}.Set("k", "v").Delete("d")}, `{"metadata":{"k":"v","d":null}}`},
		{"work update empty", WorkUpdateParams{Metadata: MetadataPatch{}}, `{"metadata":{}}`},
		{"heartbeat", WorkHeartbeatParams{DesiredTTLSeconds: Ptr(60), ExpectedLastHeartbeat: "2026-04-02T10:01:00Z"},
			`{"desired_ttl_seconds":60,"expected_last_heartbeat":"2026-04-02T10:01:00Z"}`},
		{"empty heartbeat", WorkHeartbeatParams{}, `{}`},
		{"stop", WorkStopParams{Force: true}, `{"force":true}`},
		{"stop gently", WorkStopParams{}, `{}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body, err := codec.MarshalRequest(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), body)
			got, err := json.Marshal(tt.in)
			require.NoError(t, err)
			requireJSONEqual(t, []byte(tt.want), got)
		})
	}
}

// TestEnvironmentParamsDecode reads the params forms back.
func TestEnvironmentParamsDecode(t *testing.T) {
	var p EnvironmentUpdateParams
	in := `{"description":null,"config":{"type":"cloud","packages":{"pip":["x"]}},"scope":"account","metadata":{"a":null}}`
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	want := EnvironmentUpdateParams{Description: Clear[string](), Config: Set[EnvironmentConfig](CloudEnvironmentConfig{Packages: &EnvironmentPackages{Pip: []string{"x"}}}),
		Scope: Set(EnvironmentScopeAccount), Metadata: MetadataPatch{"a": nil}}
	if diff := cmp.Diff(want, p, cmp.AllowUnexported(Update[string]{}, Update[EnvironmentConfig]{}, Update[EnvironmentScope]{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func FuzzEnvironment(f *testing.F) {
	var seeds [][]byte
	for _, n := range []string{"environment_cloud.json", "environment_self_hosted.json", "environment_unknown.json", "environment_unknown_config.json"} {
		seeds = append(seeds, readGolden(f, "environments", n))
	}
	fuzzRecord[Environment](f, seeds...)
}

func FuzzWork(f *testing.F) {
	var seeds [][]byte
	for _, n := range []string{"work_session.json", "work_healthcheck.json", "work_unknown.json"} {
		seeds = append(seeds, readGolden(f, "environments", n))
	}
	fuzzRecord[Work](f, seeds...)
}

func FuzzWorkHeartbeat(f *testing.F) {
	fuzzRecord[WorkHeartbeat](f, readGolden(f, "environments", "work_heartbeat.json"))
}

func FuzzWorkQueueStats(f *testing.F) {
	fuzzRecord[WorkQueueStats](f, readGolden(f, "environments", "work_queue_stats.json"))
}

func FuzzEnvironmentConfig(f *testing.F) {
	fuzzDecoder(f, environmentConfigUnion.Decode, `{"type":"self_hosted"}`,
		`{"type":"cloud","networking":{"type":"limited","allowed_hosts":["a"],"allow_mcp_servers":true},"packages":{"type":"packages","pip":["x"],"apt":null}}`)
}

func FuzzEnvironmentNetworking(f *testing.F) {
	fuzzDecoder(f, environmentNetworkingUnion.Decode, `{"type":"unrestricted"}`,
		`{"type":"limited","allowed_hosts":[],"allow_mcp_servers":false,"allow_package_managers":true}`)
}

func FuzzWorkData(f *testing.F) {
	fuzzDecoder(f, workDataUnion.Decode, `{"type":"session","id":"s"}`, `{"type":"healthcheck","id":"h"}`)
}
