package exampleclient_test

import (
	"context"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
)

// TestNewWithoutConfiguration: nothing configured, New runs against a
// fake it announces, and the fake takes scripts.
func TestNewWithoutConfiguration(t *testing.T) {
	_, stderr := exampletest.RunMain(t, func() {
		client, fake, err := exampleclient.New()
		if err != nil {
			t.Fatal(err)
		}
		defer fake.Close()
		if fake == nil {
			t.Fatal("no fake")
		}
		fake.Script(mmstest.Turn{Text: "scripted"})
		msg, err := client.Messages.Create(context.Background(), mms.MessageCreateParams{Model: "mms-large-1", MaxTokens: 16,
			Messages: []mms.MessageParam{mms.UserText("hi")}})
		if err != nil || msg.Text() != "scripted" {
			t.Errorf("reply %v, err %v", msg, err)
		}
	})
	if !strings.HasPrefix(stderr, "no credential configured (set $VENDOR_API_KEY and $VENDOR_BASE_URL for the service): ") {
		t.Errorf("stderr = %q", stderr)
	}
}

// TestConfigured: any variable by which mms.NewClient finds the service
// means the service, even a partial setting, whose error New returns
// rather than fall back to the fake.
func TestConfigured(t *testing.T) {
	for _, name := range []string{mms.EnvAPIKey, mms.EnvAuthToken, mms.EnvBaseURL, mms.EnvProfile, mms.EnvFederationRuleID} {
		t.Run(name, func(t *testing.T) {
			exampletest.Unconfigured(t)
			if exampleclient.Configured() {
				t.Fatal("configured with nothing set")
			}
			t.Setenv(name, "x")
			if !exampleclient.Configured() {
				t.Fatalf("not configured with $%s set", name)
			}
		})
	}

	exampletest.Unconfigured(t)
	t.Setenv(mms.EnvAPIKey, "key") // and no base URL
	client, fake, err := exampleclient.New()
	if err == nil || client != nil || fake != nil || !strings.Contains(err.Error(), "no base URL") {
		t.Errorf("New = %v, %v, %v; want mms.NewClient's error", client, fake, err)
	}

	t.Setenv(mms.EnvBaseURL, "https://service.example")
	client, fake, err = exampleclient.New()
	if err != nil || client == nil || fake != nil {
		t.Errorf("New = %v, %v, %v; want a client for the service", client, fake, err)
	}
}

// TestNilFake: the service's nil *Fake does nothing.
func TestNilFake(t *testing.T) {
	var fake *exampleclient.Fake
	fake.Script(mmstest.Turn{Text: "unused"})
	fake.Close()
	if fake.Options() != nil {
		t.Error("options for the service")
	}
}
