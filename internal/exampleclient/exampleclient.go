// Package exampleclient gives the examples their client, so that
// `go run ./examples/<name>` works on any machine: a client for the
// service when the environment configures one, else a client for mmstest,
// the SDK's in-process fake of the service (no key, no network), announced
// by one line on stderr.
//
// It is not part of the SDK and not meant to be copied: in your program,
// write
//
//	client, err := mms.NewClient() // $VENDOR_API_KEY (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL
//
// with the same options the example passes to New.
package exampleclient

import (
	"fmt"
	"os"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// Notice is what the line on stderr says after its reason when an example
// runs against the fake; tests look for it.
const Notice = "running against the built-in fake (mmstest), in this process"

// Fake is the in-process fake an example runs against. A nil *Fake stands
// for the service: its methods do nothing, so an example calls them
// unconditionally.
type Fake struct {
	*mmstest.Server
}

// Close stops the fake; nothing for the service.
func (f *Fake) Close() {
	if f != nil {
		f.Server.Close()
	}
}

// Script queues the fake model's next turns (see mmstest.Server.Script);
// against the service, the real model decides and the script is unused.
func (f *Fake) Script(turns ...mmstest.Turn) {
	if f != nil {
		f.Server.Script(turns...)
	}
}

// Options are the client options that reach the fake (its URL, key and
// HTTP client); none for the service.
func (f *Fake) Options() []option.RequestOption {
	if f == nil {
		return nil
	}
	return f.ClientOptions()
}

// New returns a client built by mms.NewClient(opts...) when the
// environment configures the service (see Configured), with a nil *Fake.
// Otherwise it starts a fake, says so on stderr, and returns a client for
// it with opts added, and the fake, which the caller closes.
func New(opts ...option.RequestOption) (*mms.Client, *Fake, error) {
	return NewWithFake(nil, opts...)
}

// NewWithFake is New with the fake, when there is one, started with
// fakeOpts (a server rate limit, a priority commitment, ...).
func NewWithFake(fakeOpts []mmstest.Option, opts ...option.RequestOption) (*mms.Client, *Fake, error) {
	fake := Start(fakeOpts...)
	client, err := mms.NewClient(append(fake.Options(), opts...)...)
	if err != nil {
		fake.Close()
		return nil, nil, err
	}
	return client, fake, nil
}

// Start returns nil when the environment configures the service (see
// Configured); otherwise it starts a fake with opts, says so on stderr,
// and returns it. Examples that build their client themselves pass its
// Options to mms.NewClient.
func Start(opts ...mmstest.Option) *Fake {
	if Configured() {
		return nil
	}
	return StartFake("no credential configured (set $"+mms.EnvAPIKey+" and $"+mms.EnvBaseURL+" for the service)", opts...)
}

// StartFake starts a fake with opts and announces it (Announce). Examples
// that reach the service another way (a partner platform's credentials)
// decide for themselves and call it.
func StartFake(why string, opts ...mmstest.Option) *Fake {
	Announce(why)
	return &Fake{mmstest.NewServer(opts...)}
}

// Announce writes the one line on stderr that says an example runs
// against the fake: why, then Notice. Examples that start their fake
// themselves, with settings of their own, call it.
func Announce(why string) {
	fmt.Fprintf(os.Stderr, "%s: %s\n", why, Notice)
}

// configVars are the variables by which mms.NewClient finds a credential
// or the service's address.
var configVars = []string{
	mms.EnvAPIKey, mms.EnvAuthToken, mms.EnvBaseURL, mms.EnvProfile,
	mms.EnvFederationRuleID, mms.EnvOrganizationID, mms.EnvIdentityTokenFile, mms.EnvIdentityToken,
}

// Configured reports whether the environment points mms.NewClient at the
// service: one of its credential or address variables is set (a partial
// setting then fails in mms.NewClient, with its own error, rather than
// fall back to the fake unnoticed), or, with none set, mms.NewClient()
// succeeds from the active profile of $VENDOR_CONFIG_DIR.
func Configured() bool {
	for _, name := range configVars {
		if os.Getenv(name) != "" {
			return true
		}
	}
	// Building a client sends nothing and starts nothing: a token is
	// fetched on the first request.
	_, err := mms.NewClient()
	return err == nil
}
