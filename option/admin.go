package option

import (
	"strings"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
)

// WithAdminKey authenticates the Organization (Admin) API client
// (admin.NewClient) with an admin key, sent as x-api-key and only to
// /v1/organizations/ paths: the transport refuses, before sending, any
// other path while an admin key is the credential. An admin key is a
// secret: it is never printed, and errors and logs are scrubbed of it.
// mms.NewClient refuses it (use WithAPIKey there). Like every credential
// option it replaces one set earlier, and two in one list are an error.
func WithAdminKey(key string) RequestOption {
	return func(c *config.Config) error {
		if strings.TrimSpace(key) == "" {
			return fail("WithAdminKey: the key is empty")
		}
		if err := transport.CheckHeaderValue(key); err != nil {
			return fail("WithAdminKey: the key %w", err)
		}
		c.SetCredential("WithAdminKey", func(c *config.Config) { c.AdminKey = key })
		return nil
	}
}
