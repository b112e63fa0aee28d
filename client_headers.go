package mms

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/internal/transport"
	"github.com/mms-sdk/mms-go/option"
)

// customHeaders turns the value of $VENDOR_CUSTOM_HEADERS (one
// "Name: value" per line; blank lines skipped, CRLF accepted) into
// WithHeader options, which check each header as they do for a program.
// An error names the line, never its value, which may be a secret.
func customHeaders(env string) ([]option.RequestOption, error) {
	var opts []option.RequestOption
	for i, line := range strings.Split(env, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("mms: $%s line %d: want \"Name: value\"", EnvCustomHeaders, i+1)
		}
		if transport.CheckHeaderName(http.CanonicalHeaderKey(strings.TrimSpace(name))) != nil {
			// Not quoted either: a line pasted wrong may hold its secret
			// before the first colon.
			return nil, fmt.Errorf("mms: $%s line %d: the header name is not a valid HTTP header name", EnvCustomHeaders, i+1)
		}
		opt := option.WithHeader(name, strings.TrimSpace(value))
		opts = append(opts, func(c *config.Config) error {
			if err := opt(c); err != nil {
				return fmt.Errorf("mms: $%s line %d: %w", EnvCustomHeaders, i+1, err)
			}
			return nil
		})
	}
	return opts, nil
}
