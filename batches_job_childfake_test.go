package mms_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/mmstest"

	"github.com/stretchr/testify/require"
)

// childFakeEnv marks the test binary re-executed as a fake service in a
// child process, so that a benchmark measuring the SDK's memory does not
// count the fake's.
const childFakeEnv = "MMS_TEST_CHILD_FAKE"

// TestChildFakeServer is the child's side of startChildFake: it serves an
// mmstest.Server (batches processed at once), prints its URL as the first
// line of stdout and serves until stdin closes. It is skipped in a normal
// test run.
func TestChildFakeServer(t *testing.T) {
	if os.Getenv(childFakeEnv) != "1" {
		t.Skip("runs only as the child of startChildFake")
	}
	srv := mmstest.NewServer(mmstest.WithBatchProcessingTime(0))
	defer srv.Close()
	fmt.Println(srv.URL)
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		t.Fatal(err)
	}
}

// startChildFake starts the test binary as a child serving
// TestChildFakeServer and returns its URL; the child ends when tb's
// cleanup closes its stdin.
func startChildFake(tb testing.TB) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestChildFakeServer$", "-test.count=1")
	cmd.Env = append(os.Environ(), childFakeEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	require.NoError(tb, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(tb, err)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		stdin.Close()
		done := make(chan error, 1)
		go func() {
			io.Copy(io.Discard, stdout) // the child's PASS line
			done <- cmd.Wait()
		}()
		select {
		case err := <-done:
			if err != nil {
				tb.Errorf("child fake: %v", err)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			tb.Errorf("child fake did not end when its stdin closed; killed")
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	url := strings.TrimSpace(line)
	if err != nil || !strings.HasPrefix(url, "http") {
		tb.Fatalf("child fake: first line %q, %v", line, err)
	}
	return url
}
