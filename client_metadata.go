package mms

import (
	"net/http"

	"github.com/mms-sdk/mms-go/internal/config"
	"github.com/mms-sdk/mms-go/option"
)

// ResponseMetadata is what a response says about itself beyond its body:
// request id, organization and workspace, parsed rate-limit and priority
// headers, the server's retry-after, and how many attempts the call took.
// Capture it for any call with option.WithResponseMetadata; an *Error
// carries it too ([Error.Metadata]). The type is defined in package option,
// which names it for WithResponseMetadata; see [option.ResponseMetadata]
// for its fields.
type ResponseMetadata = option.ResponseMetadata

// RateLimit is one parsed vendor-ratelimit-* or vendor-priority-* bucket;
// see [option.RateLimit] for its fields.
type RateLimit = option.RateLimit

// metadataFrom parses a response's metadata as option.WithResponseMetadata
// captures it: the parser lives with the type, in package option, and this
// is its one public entry.
func metadataFrom(status int, h http.Header, attempts int, platformRequestID string) ResponseMetadata {
	var md ResponseMetadata
	var cfg config.Config
	if option.WithResponseMetadata(&md)(&cfg) == nil {
		cfg.MetadataInto(status, h, attempts, platformRequestID, false)
	}
	return md
}
