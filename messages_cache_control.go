package mms

// CacheControl marks a prompt-caching breakpoint on a block, tool or system
// entry. Its wire type is always "ephemeral".
//
//mms:json request type=ephemeral
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
