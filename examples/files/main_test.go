package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampletest"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// TestRun runs the example against mmstest, so it cannot rot: once as the
// service behaves (an upload is not downloadable), once with the file
// marked downloadable as a tool-created file would be.
func TestRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(path, []byte("The meeting moved to Thursday.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, downloadable := range []bool{false, true} {
		srv := mmstest.NewServer()
		defer srv.Close()
		opts := []option.RequestOption{option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL)}
		if downloadable {
			download := regexp.MustCompile(`^/v1/files/([^/]+)/content$`)
			opts = append(opts, option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
				if m := download.FindStringSubmatch(r.URL.Path); m != nil {
					srv.SetFileDownloadable(m[1], true)
				}
				return next(r)
			}))
		}
		client, err := mms.NewClient(opts...)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := run(context.Background(), client, path, "mms-large-1", "When is the meeting?", &out); err != nil {
			t.Fatal(err)
		}
		want := []string{
			"uploaded notes.txt as file_", "(text/plain, 31 bytes)", "answer: You said: When is the meeting?", "deleted file_",
		}
		if downloadable {
			want = append(want, "downloaded 31 bytes (text/plain), identical to the local file")
		} else {
			want = append(want, "download refused (downloadable: false)")
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, out.String())
			}
		}
	}
}

// TestMainWithoutCredentials runs main as `go run` does on a machine with
// no credentials: against the built-in fake, which it says once on stderr.
func TestMainWithoutCredentials(t *testing.T) {
	out, _ := exampletest.RunMain(t, main)
	for _, want := range []string{"uploaded notes.txt", "answer: ", "download refused", "deleted file_"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
