package mms_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// childFakeEnv marks the test binary re-executed as a fake service in a
// child process, so that a benchmark measuring the SDK's memory does not
// count the fake's.
const childFakeEnv = "MMS_TEST_CHILD_FAKE"

// serveChildFake is the child's side of startChildFake, called by
// TestMain instead of the tests when childFakeEnv is set (so a test run
// has no test that only skips): it serves an mmstest.Server (batches
// processed at once), prints its URL as the first line of stdout and
// serves until stdin closes. It returns the process's exit code.
func serveChildFake() int {
	srv := mmstest.NewServer(mmstest.WithBatchProcessingTime(0))
	defer srv.Close()
	fmt.Println(srv.URL)
	if _, err := io.Copy(io.Discard, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "child fake:", err)
		return 1
	}
	return 0
}

// startChildFake starts the test binary as a child serving the fake
// (serveChildFake) and returns its URL; the child ends when tb's cleanup
// closes its stdin.
func startChildFake(tb testing.TB) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0])
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
			io.Copy(io.Discard, stdout) // anything after the URL
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

// TestChildFake checks the child process startChildFake starts, which the
// benchmarks use: it serves the fake, and a normal run tests it.
func TestChildFake(t *testing.T) {
	url := startChildFake(t)
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(url))
	require.NoError(t, err)
	var n int
	for _, err := range client.Models.List(context.Background(), mms.ModelListParams{}) {
		require.NoError(t, err)
		n++
	}
	require.Positive(t, n, "models the child fake lists")
}
