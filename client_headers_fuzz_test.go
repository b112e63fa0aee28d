package mms

import (
	"strings"
	"testing"

	"github.com/mms-sdk/mms-go/internal/config"
)

// headerCanary goes around every value of the fuzzed variable and each
// item of a comma-separated one. It holds a colon, so no header name
// holds it, and no fixed text of an error does.
const headerCanary = "Qz7:cAnArY"

// FuzzCustomHeaders checks the contract of $VENDOR_CUSTOM_HEADERS: an
// error names the line, never its value (a value may be a secret). Every
// value, and every comma-separated part of it, is wrapped in a canary; no
// error of parsing or applying the lines may hold it.
func FuzzCustomHeaders(f *testing.F) {
	for _, seed := range []string{
		"X-Team: search", "Vendor-Beta: sk-secret value", "vendor-beta: a,,b", "Vendor-Beta: a, b",
		"X-Api-Key: sk", "Authorization: Bearer x", "X-Trace: a\x01b", "X Team: a", ": v", "novalue",
		"X-A: 1\r\nX-B: 2\n\nVendor-Beta: files-api-2025-04-14", "Vendor-Beta: \x7f",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, env string) {
		lines := strings.Split(env, "\n")
		for i, line := range lines {
			if name, value, ok := strings.Cut(line, ":"); ok {
				value = headerCanary + strings.ReplaceAll(value, ",", headerCanary+","+headerCanary) + headerCanary
				lines[i] = name + ":" + value
			}
		}
		env = strings.Join(lines, "\n")
		opts, err := customHeaders(env)
		errs := []error{err}
		for _, o := range opts {
			errs = append(errs, o(config.Default()))
		}
		for _, err := range errs {
			if err != nil && strings.Contains(strings.ToLower(err.Error()), strings.ToLower(headerCanary)) {
				t.Fatalf("the error quotes a value: %v", err)
			}
		}
	})
}
