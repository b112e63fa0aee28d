package multipart

import (
	"os"
	"testing"

	"github.com/mms-sdk/mms-go/internal/fixtures"
)

// TestMain ends the run with a line naming the tests that ran without
// ../shared, if any.
func TestMain(m *testing.M) {
	os.Exit(fixtures.Main(m))
}
