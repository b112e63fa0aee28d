package mms

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mms-sdk/mms-go/option"
)

// ErrWebhookNoObject is the error of [WebhooksService.Fetch] for an event
// whose object cannot be fetched: a *.deleted event (the object is gone),
// an event of a resource this client has no service for, or an
// [UnknownWebhookEvent]. Nothing is sent.
var ErrWebhookNoObject = errors.New("mms: the webhook event names no object this client can fetch")

// Fetch retrieves the object a webhook event names, as it is now (an
// event carries only ids; spec webhooks.md §6), with the event family's
// own Get. The result's type follows the family:
//
//   - session.* (thread events included): *[Session];
//   - agent.*: *[Agent];
//   - environment.*: *[Environment];
//   - vault.*: *[Vault];
//   - vault_credential.*: *[VaultCredential];
//   - memory_store.*: *[MemoryStore];
//   - user_profile.*: *[UserProfile];
//   - deployment.*: *[Deployment];
//   - deployment_run.*: *[DeploymentRun].
//
// A *.deleted event, the external_key and external_storage families
// (Organization API objects, package admin), and unknown events fail with
// [ErrWebhookNoObject] before anything is sent. opts apply to the Get (a
// workspace, a beta); the Get's errors come back as they are, so an object
// deleted since the event is a 404 *Error.
func (s *WebhooksService) Fetch(ctx context.Context, ev WebhookEvent, opts ...option.RequestOption) (any, error) {
	if ev == nil {
		return nil, fmt.Errorf("%w: the event is nil", ErrWebhookNoObject)
	}
	typ := ev.EventType()
	if _, unknown := ev.(UnknownWebhookEvent); unknown {
		return nil, fmt.Errorf("%w: %q is not an event type this SDK version knows", ErrWebhookNoObject, typ)
	}
	family, action, _ := strings.Cut(typ, ".")
	if action == "deleted" {
		return nil, fmt.Errorf("%w: %s: the object is gone", ErrWebhookNoObject, typ)
	}
	c, id := s.client, ev.ObjectID()
	switch family {
	case "session":
		return fetched(c.Sessions.Get(ctx, id, opts...))
	case "agent":
		return fetched(c.Agents.Get(ctx, id, opts...))
	case "environment":
		return fetched(c.Environments.Get(ctx, id, opts...))
	case "vault":
		return fetched(c.Vaults.Get(ctx, id, opts...))
	case "vault_credential":
		return fetched(c.Vaults.Credentials.Get(ctx, credentialVault(ev), id, opts...))
	case "memory_store":
		return fetched(c.MemoryStores.Get(ctx, id, opts...))
	case "user_profile":
		return fetched(c.UserProfiles.Get(ctx, id, opts...))
	case "deployment":
		return fetched(c.Deployments.Get(ctx, id, opts...))
	case "deployment_run":
		return fetched(c.Deployments.Runs.Get(ctx, id, opts...))
	}
	return nil, fmt.Errorf("%w: %s: this client has no service for %s objects", ErrWebhookNoObject, typ, family)
}

// credentialVault is the vault id of a vault_credential.* event.
func credentialVault(ev WebhookEvent) string {
	switch e := ev.(type) {
	case WebhookVaultCredentialCreated:
		return e.VaultID
	case WebhookVaultCredentialArchived:
		return e.VaultID
	case WebhookVaultCredentialRefreshFailed:
		return e.VaultID
	}
	return ""
}

// fetched returns a Get's result as an any that is nil on failure (a nil
// *T in an any is not nil).
func fetched[T any](v *T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}
