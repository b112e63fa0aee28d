package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mms-sdk/mms-go/internal/exampletest"
)

// TestRun runs the example small: 3,000 requests in batches of 500 that
// the fake processes in 500 ms (not 2 s, to keep the test short),
// interrupted after 1,000 results and resumed by a new job.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(t *testing.T) string
	}{
		{"temporary dir", func(*testing.T) string { return "" }},
		{"given dir", func(t *testing.T) string { return filepath.Join(t.TempDir(), "state") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			var out bytes.Buffer
			err := run(context.Background(), &out, config{n: 3000, interruptAfter: 1000, perBatch: 500, dir: dir, batchTime: 500 * time.Millisecond})
			if err != nil {
				t.Fatalf("run: %v\n%s", err, out.String())
			}
			t.Log(out.String())
			lines := strings.Split(out.String(), "\n")
			for _, want := range []string{
				"3000 requests, state in ",
				"progress: ",
				"interrupted after 1000 results; starting a new job over the same state",
				"job done: 3000/3000 done (2997 succeeded, 3 errored, 0 canceled, 0 expired), ",
				"succeeded 2997",
				"errored   3",
				"canceled  0",
				"expired   0",
				"other     0",
				"every custom_id answered exactly once: 3000 of 3000",
			} {
				if !hasLinePrefix(lines, want) {
					t.Errorf("no line starts with %q:\n%s", want, out.String())
				}
			}
			if dir != "" {
				if entries, err := os.ReadDir(dir); err != nil || len(entries) == 0 {
					t.Errorf("the state dir %s holds %d entries (%v), want the job's state", dir, len(entries), err)
				}
			}
		})
	}
}

// TestRunRefusesUsedDir: state in a directory names batches of another
// process's fake, so the example asks for a new one.
func TestRunRefusesUsedDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plan"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := run(context.Background(), &out, config{n: 10, dir: dir})
	if err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Fatalf("run over a used dir: %v, want it refused", err)
	}
}

func hasLinePrefix(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main, "-n", "2000", "-interrupt-after", "500", "-per-batch", "500")
	for _, want := range []string{"every custom_id answered exactly once: 2000 of 2000"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
