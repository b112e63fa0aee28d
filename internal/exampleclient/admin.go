package exampleclient

import (
	"os"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// NewAdmin returns an Organization API client: admin.NewClient(opts...)
// when the environment configures the service ($VENDOR_ADMIN_KEY, or what
// Configured reads), with a nil *Fake; otherwise a client for a fake whose
// organization seed fills first (users, workspaces, keys, usage), started
// and announced as Start does. In your program, write
//
//	client, err := admin.NewClient() // $VENDOR_ADMIN_KEY and $VENDOR_BASE_URL
func NewAdmin(seed func(*mmstest.Org), opts ...option.RequestOption) (*admin.Client, *Fake, error) {
	var fake *Fake
	if os.Getenv(admin.EnvAdminKey) == "" && !Configured() {
		fake = StartFake("no admin credential configured (set $" + admin.EnvAdminKey + " and $VENDOR_BASE_URL for the service)")
		if seed != nil {
			seed(fake.Org())
		}
		opts = append(fake.AdminClientOptions(), opts...)
	}
	c, err := admin.NewClient(opts...)
	if err != nil {
		fake.Close()
		return nil, nil, err
	}
	return c, fake, nil
}
