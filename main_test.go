package mms_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/mms-sdk/mms-go/internal/fixtures"
)

// TestMain isolates the tests from the machine's credentials (an empty
// configuration directory, no federation or profile variables) and fails
// the package if any test leaves a goroutine behind; it ends with a line
// naming the tests that ran without ../shared, if any. Started by
// startChildFake, the test binary is a fake service instead and runs no
// test.
func TestMain(m *testing.M) {
	if os.Getenv(childFakeEnv) == "1" {
		os.Exit(serveChildFake())
	}
	dir, err := os.MkdirTemp("", "mms-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("VENDOR_CONFIG_DIR", dir)
	for _, k := range []string{"VENDOR_PROFILE", "VENDOR_CREDENTIALS_PATH", "VENDOR_FEDERATION_RULE_ID",
		"VENDOR_ORGANIZATION_ID", "VENDOR_IDENTITY_TOKEN_FILE", "VENDOR_IDENTITY_TOKEN",
		"VENDOR_SERVICE_ACCOUNT_ID", "VENDOR_WORKSPACE_ID", "VENDOR_CUSTOM_HEADERS"} {
		os.Unsetenv(k)
	}
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		fixtures.Report(os.Stderr) // the tests that ran without ../shared
		os.RemoveAll(dir)
		os.Exit(code)
	}))
}
