package mms

// The credential chain of NewClient: which credential a client uses when
// no option gives one, and the errors of getting tokens.

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/mms-sdk/mms-go/internal/adminbridge"
	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
)

// Environment variables of federation and profiles, read by NewClient when
// no credential option is given (see [NewClient] for the order).
const (
	// EnvProfile names the profile to load from the configuration directory.
	EnvProfile = "VENDOR_PROFILE"
	// EnvConfigDir overrides the configuration directory.
	EnvConfigDir = "VENDOR_CONFIG_DIR"
	// EnvCredentialsPath points at a profile's credentials file when its
	// configuration names none.
	EnvCredentialsPath = "VENDOR_CREDENTIALS_PATH"
	// EnvFederationRuleID, EnvOrganizationID and one of EnvIdentityTokenFile
	// and EnvIdentityToken together select workload identity federation.
	EnvFederationRuleID  = "VENDOR_FEDERATION_RULE_ID"
	EnvOrganizationID    = "VENDOR_ORGANIZATION_ID"
	EnvIdentityTokenFile = "VENDOR_IDENTITY_TOKEN_FILE"
	EnvIdentityToken     = "VENDOR_IDENTITY_TOKEN"
	// EnvServiceAccountID and EnvWorkspaceID are optional members of the
	// federation exchange (a profile's workspace also comes from
	// EnvWorkspaceID when its configuration has none).
	EnvServiceAccountID = "VENDOR_SERVICE_ACCOUNT_ID"
	EnvWorkspaceID      = "VENDOR_WORKSPACE_ID"
)

// envValue reads a variable; blank counts as unset, so an empty variable
// never stops the chain.
func envValue(name string) string { return strings.TrimSpace(os.Getenv(name)) }

// credentialPlan is what chooseCredential found beyond a static
// credential: a federation to build, or a profile to apply, once the base
// URL is known.
type credentialPlan struct {
	federation *config.Federation
	label      string // where the federation settings came from
	profile    *profile
}

// chooseCredential picks cfg's credential, in this order, the first that
// applies winning:
//
//  1. an option: WithAPIKey, WithAuthToken, WithTokenSource,
//     WithFederation or WithProfile;
//  2. $VENDOR_API_KEY;
//  3. $VENDOR_AUTH_TOKEN;
//  4. the profile $VENDOR_PROFILE names (an error if it cannot be loaded);
//  5. federation from $VENDOR_FEDERATION_RULE_ID, $VENDOR_ORGANIZATION_ID
//     and $VENDOR_IDENTITY_TOKEN_FILE or $VENDOR_IDENTITY_TOKEN, all set;
//  6. the active profile of the configuration directory (the name in its
//     active_config file, else "default"), when its configuration exists.
//
// For package admin (admin true), $VENDOR_ADMIN_KEY comes before step 2
// when no option gives a credential.
//
// Blank variables count as unset. The chain does not stop early: some but
// not all federation variables set is an error (naming the missing ones)
// only when no active profile follows, since a profile takes its missing
// values from the same variables.
func chooseCredential(cfg *config.Config, admin bool) (credentialPlan, error) {
	var plan credentialPlan
	var err error
	switch {
	case admin && !cfg.CredentialGiven() && cfg.Federation == nil && cfg.Profile == "" && envValue(adminbridge.EnvAdminKey) != "":
		err = useStatic(&cfg.AdminKey, adminbridge.EnvAdminKey)
	case cfg.Federation != nil:
		plan.federation, plan.label = cfg.Federation, "option.WithFederation"
	case cfg.Profile != "":
		plan.profile, err = loadProfile(cfg, cfg.Profile, "option.WithProfile")
	case cfg.CredentialGiven():
	case envValue(EnvAPIKey) != "":
		err = useStatic(&cfg.APIKey, EnvAPIKey)
	case envValue(EnvAuthToken) != "":
		err = useStatic(&cfg.AuthToken, EnvAuthToken)
	case envValue(EnvProfile) != "":
		plan.profile, err = loadProfile(cfg, envValue(EnvProfile), "$"+EnvProfile)
	default:
		// A partial federation set is reported only when no active profile
		// follows: the profile may be what its variables were set for.
		var partial error
		plan.federation, partial = envFederation()
		if plan.federation != nil {
			plan.label = "federation ($" + EnvFederationRuleID + ")"
		} else if plan.profile, err = activeProfile(cfg); err == nil && plan.profile == nil {
			err = partial
		}
	}
	cfg.Federation, cfg.Profile = nil, ""
	if err != nil {
		return plan, err
	}
	if cfg.APIKey == "" && cfg.AuthToken == "" && cfg.Bearer == nil && cfg.AdminKey == "" && plan.federation == nil && plan.profile == nil {
		if admin {
			return plan, fmt.Errorf("admin: no credential: tried option.WithAdminKey, $%s, then the credential chain of mms.NewClient (option.WithAPIKey, WithAuthToken, WithTokenSource, WithFederation and WithProfile, $%s, $%s, $%s, federation and the active profile of %s)",
				adminbridge.EnvAdminKey, EnvAPIKey, EnvAuthToken, EnvProfile, configDirShown(cfg))
		}
		return plan, fmt.Errorf("mms: no credential: tried option.WithAPIKey, WithAuthToken, WithTokenSource, WithFederation and WithProfile, $%s, $%s, $%s, federation ($%s, $%s, $%s or $%s) and the active profile of %s",
			EnvAPIKey, EnvAuthToken, EnvProfile, EnvFederationRuleID, EnvOrganizationID, EnvIdentityTokenFile, EnvIdentityToken, configDirShown(cfg))
	}
	return plan, nil
}

// apply builds the planned token source, once cfg's base URL is known.
func (plan credentialPlan) apply(cfg *config.Config) error {
	switch {
	case plan.federation != nil:
		return useFederation(cfg, *plan.federation, plan.label)
	case plan.profile != nil:
		return plan.profile.apply(cfg)
	}
	return nil
}

// useStatic takes a static credential from the variable name.
func useStatic(dst *string, name string) error {
	v := os.Getenv(name) // not trimmed: a stray line break is refused, not hidden
	if err := transport.CheckHeaderValue(v); err != nil {
		return fmt.Errorf("mms: $%s %w", name, err)
	}
	*dst = v
	return nil
}

// envFederation reads federation settings from the environment: nil when
// none of its variables is set.
func envFederation() (*config.Federation, error) {
	f := config.Federation{
		RuleID:            envValue(EnvFederationRuleID),
		OrganizationID:    envValue(EnvOrganizationID),
		IdentityTokenFile: envValue(EnvIdentityTokenFile),
		ServiceAccountID:  envValue(EnvServiceAccountID),
		WorkspaceID:       envValue(EnvWorkspaceID),
	}
	if f.IdentityTokenFile == "" && envValue(EnvIdentityToken) != "" {
		f.IdentityTokenEnv = EnvIdentityToken
	}
	hasToken := f.IdentityTokenFile != "" || f.IdentityTokenEnv != ""
	if f.RuleID == "" && f.OrganizationID == "" && !hasToken {
		return nil, nil
	}
	var missing []string
	if f.RuleID == "" {
		missing = append(missing, "$"+EnvFederationRuleID)
	}
	if f.OrganizationID == "" {
		missing = append(missing, "$"+EnvOrganizationID)
	}
	if !hasToken {
		missing = append(missing, "$"+EnvIdentityTokenFile+" (or $"+EnvIdentityToken+")")
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("mms: federation is configured only in part: %s not set", strings.Join(missing, ", "))
	}
	return &f, nil
}

// checkExchangeURL applies the exchange's transport rule: https, or http to
// a loopback host only, since the identity token travels in the body.
func checkExchangeURL(u *url.URL) error {
	if u.Scheme == "https" {
		return nil
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return nil
	}
	return fmt.Errorf("mms: the token exchange needs an https base URL (http only to localhost, 127.0.0.1 or ::1); %s://%s would send the identity token unencrypted", u.Scheme, u.Host)
}

// TokenExchangeError is a failed POST /v1/oauth/token: a federation
// exchange or a profile's refresh. It carries the status, the request id
// and the OAuth error members only (RFC 6749 §5.2), never the body, so no
// assertion or token can reach a log through it.
type TokenExchangeError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// RequestID is the answer's request-id header.
	RequestID string
	// Code is the OAuth error code ("invalid_grant", "invalid_request", …).
	Code string
	// Description is the error_description, cut to 2,000 bytes, with any
	// secret the SDK sent in the request replaced by [redacted].
	Description string
	// URI is the error_uri.
	URI string
	// Grant is the grant type of the request ("jwt-bearer" or
	// "refresh_token").
	Grant string
}

// Error returns one line with a hint for the common causes.
func (e *TokenExchangeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mms: token exchange (%s) failed: %d", e.Grant, e.StatusCode)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Description != "" {
		b.WriteString(": " + e.Description)
	}
	if e.RequestID != "" {
		b.WriteString(" (request-id " + e.RequestID + ")")
	}
	switch {
	case e.Grant == grantRefresh && e.Code == "invalid_grant":
		b.WriteString("; the refresh token is no longer valid: log in again")
	case e.StatusCode == 401:
		b.WriteString("; check that the federation rule matches the identity token, and set a workspace id if the rule covers several workspaces")
	}
	return b.String()
}

// Is matches ErrAuthentication for a 401 or an invalid_grant, and the
// status sentinels otherwise.
func (e *TokenExchangeError) Is(target error) bool {
	if e.Code == "invalid_grant" && target == ErrAuthentication {
		return true
	}
	return statusIs(e.StatusCode, target)
}

// errNoToken is the cause of a profile whose token expired with no way to
// renew it.
var errNoToken = errors.New("no valid access token")
