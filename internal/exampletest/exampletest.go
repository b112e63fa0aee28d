// Package exampletest runs an example's main as `go run` would on a
// machine with no credentials, for the examples' own tests.
package exampletest

import (
	"os"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
)

// Unconfigured clears, for the rest of the test, every variable by which
// mms.NewClient could find the service, and points $VENDOR_CONFIG_DIR at
// an empty directory, so that no profile of the machine's applies.
func Unconfigured(t *testing.T) {
	t.Helper()
	for _, name := range []string{
		mms.EnvAPIKey, mms.EnvAuthToken, mms.EnvBaseURL, mms.EnvProfile, mms.EnvCustomHeaders,
		mms.EnvFederationRuleID, mms.EnvOrganizationID, mms.EnvIdentityTokenFile, mms.EnvIdentityToken,
		mms.EnvServiceAccountID, mms.EnvWorkspaceID, mms.EnvCredentialsPath, "VENDOR_MODEL", "VENDOR_ADMIN_KEY",
	} {
		t.Setenv(name, "")
	}
	t.Setenv(mms.EnvConfigDir, t.TempDir())
}

// RunMain runs main with args (usually none) in an unconfigured
// environment (Unconfigured), capturing what it writes to os.Stdout and
// os.Stderr. It fails the test unless stderr holds exactly one line saying
// the example runs against the fake. A main that
// fails calls log.Fatal and ends the test binary, which fails the test too.
//
// main may be run once per test binary: a second run would define its
// flags again.
func RunMain(t *testing.T, main func(), args ...string) (stdout, stderr string) {
	t.Helper()
	Unconfigured(t)
	saved := os.Args
	os.Args = append([]string{saved[0]}, args...)
	defer func() { os.Args = saved }()
	outFile, errFile := tempFile(t, "stdout"), tempFile(t, "stderr")
	realOut, realErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outFile, errFile
	func() {
		defer func() { os.Stdout, os.Stderr = realOut, realErr }()
		main()
	}()
	stdout, stderr = read(t, outFile), read(t, errFile)
	if n := strings.Count(stderr, exampleclient.Notice); n != 1 {
		t.Errorf("stderr says %d times that it runs against the fake, want once:\n%s", n, stderr)
	}
	return stdout, stderr
}

func tempFile(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func read(t *testing.T, f *os.File) string {
	t.Helper()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// OutputHas fails the test for each of wants that out does not contain,
// showing the whole output.
func OutputHas(t *testing.T, out string, wants []string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
