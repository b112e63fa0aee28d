package bedrock

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind (a
// stream's body, a server).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
