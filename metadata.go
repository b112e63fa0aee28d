package mms

import (
	"net/http"

	"github.com/mms-sdk/mms-go/internal/transport"
)

// ResponseMetadata is what a response says about itself beyond its body:
// request id, organization and workspace, parsed rate-limit and priority
// headers, the server's retry-after, and how many attempts the call took.
// Capture it for any call with option.WithResponseMetadata; an *Error
// carries it too ([Error.Metadata]).
type ResponseMetadata = transport.Metadata

// RateLimit is one parsed vendor-ratelimit-* or vendor-priority-* bucket.
type RateLimit = transport.RateLimit

func metadataFrom(status int, h http.Header, attempts int) ResponseMetadata {
	return transport.ParseMetadata(status, h, attempts)
}
