package mms

import "github.com/mms-sdk/mms-go/internal/codec"

func init() {
	codec.Register(CacheControl{}, codec.Spec{Type: "ephemeral"})
}

// CacheControl marks a prompt-caching breakpoint on a block, tool or system
// entry. Its wire type is always "ephemeral".
type CacheControl struct {
	// TTL is how long the cache entry lives: CacheTTL5m (the default when
	// empty) or CacheTTL1h.
	TTL CacheTTL `json:"ttl,omitzero"`
}

// CacheTTL is the lifetime of a cache entry. Unknown values pass through.
type CacheTTL string

// Cache lifetimes the service accepts.
const (
	CacheTTL5m CacheTTL = "5m"
	CacheTTL1h CacheTTL = "1h"
)

// MarshalJSON writes the breakpoint with its constant "type":"ephemeral".
func (c CacheControl) MarshalJSON() ([]byte, error) { return marshalRequest(c) }

// UnmarshalJSON decodes the breakpoint.
func (c *CacheControl) UnmarshalJSON(data []byte) error { return unmarshalJSON(data, c) }

// validate checks the ttl against the values the service accepts.
func (c *CacheControl) validate(path string) error {
	if c == nil {
		return nil
	}
	switch c.TTL {
	case "", CacheTTL5m, CacheTTL1h:
		return nil
	}
	return invalid(path+".ttl", "must be %q or %q, got %q", CacheTTL5m, CacheTTL1h, c.TTL)
}
