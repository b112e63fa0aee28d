package mms

// Profiles of the configuration directory: configs/<name>.json and the
// credentials file holding a profile's token.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mms-sdk/mms-go/internal/auth"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// The authentication types of a profile.
const (
	profileFederation = "oidc_federation"
	profileUserOAuth  = "user_oauth"
)

// profileConfig is configs/<name>.json.
type profileConfig struct {
	Version        string `json:"version"`
	BaseURL        string `json:"base_url"`
	OrganizationID string `json:"organization_id"`
	WorkspaceID    string `json:"workspace_id"`
	Authentication struct {
		Type             string `json:"type"`
		CredentialsPath  string `json:"credentials_path"`
		FederationRuleID string `json:"federation_rule_id"`
		ServiceAccountID string `json:"service_account_id"`
		IdentityToken    *struct {
			Source string `json:"source"`
			Path   string `json:"path"`
		} `json:"identity_token"`
		Scope      string `json:"scope"`
		ClientID   string `json:"client_id"`
		ConsoleURL string `json:"console_url"`
	} `json:"authentication"`
}

// profile is a loaded profile, its missing values filled from the
// environment.
type profile struct {
	name, label string
	conf        profileConfig
	credentials string // the credentials file's path
}

// configDir is the configuration directory: the option, else
// $VENDOR_CONFIG_DIR, else %APPDATA%\Vendor on Windows, else
// $XDG_CONFIG_HOME/vendor, else $HOME/.config/vendor.
func configDir(cfg *config.Config) (string, error) {
	if cfg.ConfigDir != "" {
		return cfg.ConfigDir, nil
	}
	if d := envValue(EnvConfigDir); d != "" {
		return d, nil
	}
	if runtime.GOOS == "windows" {
		if d := envValue("APPDATA"); d != "" {
			return filepath.Join(d, "Vendor"), nil
		}
	}
	if d := envValue("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "vendor"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("mms: no configuration directory: %w", err)
	}
	return filepath.Join(home, ".config", "vendor"), nil
}

// configDirShown names the configuration directory in an error.
func configDirShown(cfg *config.Config) string {
	d, err := configDir(cfg)
	if err != nil {
		return "the configuration directory (none found)"
	}
	return d
}

// activeProfile loads the profile active_config names, else "default";
// nil when that profile has no configuration file.
func activeProfile(cfg *config.Config) (*profile, error) {
	dir, err := configDir(cfg)
	if err != nil {
		return nil, nil // no directory: no active profile
	}
	name := "default"
	label := "the default profile"
	if b, err := os.ReadFile(filepath.Join(dir, "active_config")); err == nil && strings.TrimSpace(string(b)) != "" {
		name = strings.TrimSpace(string(b))
		label = "the active profile (" + filepath.Join(dir, "active_config") + ")"
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("mms: reading %s: %w", filepath.Join(dir, "active_config"), err)
	}
	if err := config.CheckProfileName(name); err != nil {
		return nil, fmt.Errorf("mms: %s names %q: %w", label, name, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "configs", name+".json")); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return loadProfile(cfg, name, label)
}

// loadProfile reads configs/<name>.json and fills what it leaves open from
// the environment.
func loadProfile(cfg *config.Config, name, label string) (*profile, error) {
	if err := config.CheckProfileName(name); err != nil {
		return nil, fmt.Errorf("mms: %s: profile %q: %w", label, name, err)
	}
	dir, err := configDir(cfg)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "configs", name+".json")
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mms: %s: profile %q: %w", label, name, err)
	}
	p := &profile{name: name, label: fmt.Sprintf("profile %q", name)}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&p.conf); err != nil {
		return nil, fmt.Errorf("mms: profile %q: %s is not a profile configuration: %w", name, path, err)
	}
	a := &p.conf.Authentication
	fill := func(dst *string, env string) {
		if *dst == "" {
			*dst = envValue(env)
		}
	}
	fill(&p.conf.BaseURL, EnvBaseURL)
	fill(&p.conf.OrganizationID, EnvOrganizationID)
	fill(&p.conf.WorkspaceID, EnvWorkspaceID)
	fill(&a.FederationRuleID, EnvFederationRuleID)
	fill(&a.ServiceAccountID, EnvServiceAccountID)
	switch a.Type {
	case profileFederation:
		if a.FederationRuleID == "" || p.conf.OrganizationID == "" {
			return nil, fmt.Errorf("mms: profile %q: a federation profile needs federation_rule_id and organization_id (or $%s and $%s)", name, EnvFederationRuleID, EnvOrganizationID)
		}
		if it := a.IdentityToken; it != nil && (it.Source != "file" || it.Path == "") {
			return nil, fmt.Errorf("mms: profile %q: identity_token must be {\"source\": \"file\", \"path\": …}", name)
		}
	case profileUserOAuth:
	default:
		return nil, fmt.Errorf("mms: profile %q: authentication.type must be %q or %q, got %q", name, profileFederation, profileUserOAuth, a.Type)
	}
	switch {
	case a.CredentialsPath != "":
		p.credentials = a.CredentialsPath
		if !filepath.IsAbs(p.credentials) {
			p.credentials = filepath.Join(dir, p.credentials)
		}
	case envValue(EnvCredentialsPath) != "":
		p.credentials = envValue(EnvCredentialsPath)
	default:
		p.credentials = filepath.Join(dir, "credentials", name+".json")
	}
	return p, nil
}

// apply sets the profile's base URL and workspace where no option did, and
// its token source.
func (p *profile) apply(cfg *config.Config) error {
	if p.conf.WorkspaceID != "" && cfg.WorkspaceID == "" && p.conf.Authentication.Type != profileFederation {
		if err := transport.CheckHeaderValue(p.conf.WorkspaceID); err != nil {
			return fmt.Errorf("mms: %s: workspace_id %w", p.label, err)
		}
		cfg.WorkspaceID = p.conf.WorkspaceID
	}
	x, err := newExchanger(cfg)
	if err != nil {
		return fmt.Errorf("mms: %s: %w", p.label, err)
	}
	src := &profileSource{p: p, x: x, now: x.now}
	if p.conf.Authentication.Type == profileFederation {
		src.federation = &federationSource{x: x, f: p.federation()}
	}
	cfg.Bearer = &config.Bearer{Fetch: src.fetch, KeepUnexpiring: true, Beta: wire.BetaOAuth, Source: p.label}
	cfg.FinishBearer()
	inner := cfg.Bearer.Invalidate
	cfg.Bearer.Invalidate = func(failed string) { src.reject(failed); inner(failed) }
	return nil
}

// baseURL is the profile's base URL, "" if it has none.
func (p *profile) baseURL() string { return p.conf.BaseURL }

// federation is the profile's federation settings; the identity token
// comes from its file, else the environment.
func (p *profile) federation() config.Federation {
	a := p.conf.Authentication
	f := config.Federation{RuleID: a.FederationRuleID, OrganizationID: p.conf.OrganizationID,
		ServiceAccountID: a.ServiceAccountID, WorkspaceID: p.conf.WorkspaceID}
	switch {
	case a.IdentityToken != nil:
		f.IdentityTokenFile = a.IdentityToken.Path
	case envValue(EnvIdentityTokenFile) != "":
		f.IdentityTokenFile = envValue(EnvIdentityTokenFile)
	default:
		f.IdentityTokenEnv = EnvIdentityToken
	}
	return f
}

// profileSource gets a profile's tokens: the credentials file's token while
// it has more than 30 s left, else a federation exchange or a refresh,
// written back to the file.
type profileSource struct {
	p          *profile
	x          *exchanger
	now        func() time.Time
	federation *federationSource // nil for a user OAuth profile

	mu       sync.Mutex
	rejected string // a token the service refused: never reused from the file
}

func (s *profileSource) reject(token string) {
	s.mu.Lock()
	s.rejected = token
	s.mu.Unlock()
}

func (s *profileSource) fetch(ctx context.Context) (auth.Token, error) {
	creds, err := readCredentials(s.p.credentials)
	if err != nil && (s.federation == nil || !errors.Is(err, fs.ErrNotExist)) {
		return auth.Token{}, fmt.Errorf("mms: %s: %w", s.p.label, err)
	}
	s.mu.Lock()
	rejected := s.rejected
	s.mu.Unlock()
	if tok, ok := creds.token(); ok && tok.Value != rejected &&
		(tok.Expiry.IsZero() || tok.Expiry.Sub(s.now()) > auth.MandatoryWindow) {
		return tok, nil
	}
	var tok auth.Token
	var refresh string
	if s.federation != nil {
		tok, err = s.federation.fetch(ctx)
	} else {
		tok, refresh, err = s.refresh(ctx, creds)
	}
	if err != nil {
		return auth.Token{}, err
	}
	if !tok.Expiry.IsZero() {
		creds.set(tok, refresh)
		if err := writeCredentials(s.p.credentials, creds); err != nil {
			if s.federation == nil { // a rotated refresh token must not be lost
				return auth.Token{}, fmt.Errorf("mms: %s: saving the new token: %w", s.p.label, err)
			}
			if s.x.logger != nil { // a minted token can be minted again
				s.x.logger.LogAttrs(ctx, slog.LevelWarn, "mms: could not save the minted token to the profile's credentials file",
					slog.String("profile", s.p.name), slog.String("error", err.Error()))
			}
		}
	}
	return tok, nil
}

// refresh runs the refresh grant of a user OAuth profile.
func (s *profileSource) refresh(ctx context.Context, creds credentials) (auth.Token, string, error) {
	old := creds.str("refresh_token")
	clientID := s.p.conf.Authentication.ClientID
	if old == "" || clientID == "" {
		return auth.Token{}, "", fmt.Errorf("mms: %s: %w and no refresh token and client_id to renew it: log in again", s.p.label, errNoToken)
	}
	body := map[string]string{"grant_type": grantRefresh, "refresh_token": old, "client_id": clientID}
	tok, rotated, err := s.x.exchange(ctx, grantRefresh, body, wire.BetaOAuth, old)
	if err != nil {
		return auth.Token{}, "", fmt.Errorf("mms: %s: %w", s.p.label, err)
	}
	rotated = cmp.Or(rotated, old)
	return tok, rotated, nil
}

// credentials is a credentials file's members, kept whole so that writing
// it back loses none of them.
type credentials map[string]json.RawMessage

func (c credentials) str(key string) string {
	var s string
	_ = json.Unmarshal(c[key], &s)
	return s
}

// token is the file's access token and expiry (expires_at, Unix seconds).
func (c credentials) token() (auth.Token, bool) {
	tok := auth.Token{Value: c.str("access_token")}
	if tok.Value == "" {
		return tok, false
	}
	var exp int64
	if json.Unmarshal(c["expires_at"], &exp) == nil && exp > 0 {
		tok.Expiry = time.Unix(exp, 0)
	}
	return tok, true
}

// set records a new token (and the refresh token, when there is one).
func (c credentials) set(tok auth.Token, refresh string) {
	put := func(k string, v any) { c[k], _ = json.Marshal(v) }
	put("version", "1.0")
	put("type", "oauth_token")
	put("access_token", tok.Value)
	put("expires_at", tok.Expiry.Unix())
	if refresh != "" {
		put("refresh_token", refresh)
	}
}

// readCredentials reads a credentials file, which must be a regular file
// (not a symlink) that only its owner can read.
func readCredentials(path string) (credentials, error) {
	creds := credentials{}
	fi, err := os.Lstat(path)
	if err != nil {
		return creds, fmt.Errorf("reading the credentials file: %w", err)
	}
	if err := checkCredentialsFile(path, fi); err != nil {
		return creds, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return creds, fmt.Errorf("reading the credentials file: %w", err)
	}
	if err := json.Unmarshal(b, &creds); err != nil {
		return credentials{}, fmt.Errorf("the credentials file %s is not JSON", path)
	}
	return creds, nil
}

// checkCredentialsFile refuses a symlink, and on systems with Unix modes a
// file group or others may read.
func checkCredentialsFile(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("the credentials file %s is a symlink; point $%s at the real file", path, EnvCredentialsPath)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("the credentials file %s is not a regular file", path)
	case runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("the credentials file %s has mode %04o; it holds tokens, so only its owner may read it (chmod 600)", path, fi.Mode().Perm())
	}
	return nil
}

// writeCredentials replaces the file atomically: a 0600 temporary file in
// the same directory, synced, then renamed over it.
func writeCredentials(path string, creds credentials) error {
	b, err := json.MarshalIndent(creds, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".credentials-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename there is nothing left to remove
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
