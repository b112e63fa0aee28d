package mmstest

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"sync"
	"time"
)

// Prompt caching, simulated.
//
// A request's prompt is read as a sequence of pieces in the service's order:
// each tool, each system block, then each content block of each turn. A
// piece carrying cache_control is a breakpoint; a top-level cache_control
// (automatic caching) is a breakpoint at the last piece. The prefix up to a
// breakpoint is cacheable when it holds at least MinCacheableTokens by the
// fake's estimate (the compact JSON of its pieces, 4 bytes a token).
//
// The longest prefix, ending at any piece boundary up to the last
// breakpoint, that an earlier request of the same model wrote and that has
// not expired is read: usage.cache_read_input_tokens, and its lifetime
// starts again. Every cacheable breakpoint past it is written, for 5
// minutes or the 1 hour of cache_control.ttl "1h", on the server's clock:
// usage.cache_creation_input_tokens, split by lifetime in
// usage.cache_creation. usage.input_tokens counts the rest. Prefixes are
// keyed by a hash of the model and the pieces without their cache_control,
// so moving a breakpoint does not change the prefixes before it.

// MinCacheableTokens is the smallest prefix, in the fake's tokens, that a
// cache_control breakpoint caches; a shorter one is neither written nor read.
const MinCacheableTokens = 1024

// promptCache holds the written prefixes of one server.
type promptCache struct {
	mu      sync.Mutex
	expires map[[sha256.Size]byte]cacheEntry
}

type cacheEntry struct {
	expires time.Time
	ttl     time.Duration
}

// cacheUsage is a request's cache accounting.
type cacheUsage struct {
	created, read        int
	created5m, created1h int
}

// cachePiece is one piece of the prompt, with the state after it.
type cachePiece struct {
	key        [sha256.Size]byte // of the model and every piece up to this one
	tokens     int               // of every piece up to this one
	breakpoint bool
	ttl        time.Duration
}

// usage looks p's prefixes up, writes the new ones and returns the
// accounting. It never counts more than total, the request's input tokens.
func (c *promptCache) usage(p *msgParams, now time.Time, total int) cacheUsage {
	pieces := cachePieces(p)
	last := -1
	for i, pc := range pieces {
		if pc.breakpoint {
			last = i
		}
	}
	if last < 0 {
		return cacheUsage{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.expires == nil {
		c.expires = map[[sha256.Size]byte]cacheEntry{}
	}
	var u cacheUsage
	hit := -1
	for i := last; i >= 0; i-- {
		if e, ok := c.expires[pieces[i].key]; ok && now.Before(e.expires) {
			hit, u.read = i, pieces[i].tokens
			c.expires[pieces[i].key] = cacheEntry{now.Add(e.ttl), e.ttl}
			break
		}
	}
	done := u.read
	for i := hit + 1; i <= last; i++ {
		pc := pieces[i]
		if !pc.breakpoint || pc.tokens < MinCacheableTokens {
			continue
		}
		c.expires[pc.key] = cacheEntry{now.Add(pc.ttl), pc.ttl}
		if pc.ttl == time.Hour {
			u.created1h += pc.tokens - done
		} else {
			u.created5m += pc.tokens - done
		}
		done = pc.tokens
	}
	u.created = done - u.read
	if u.created+u.read > total { // cannot happen: the pieces are inside the request's JSON
		return cacheUsage{}
	}
	return u
}

// cachePieces reads p's prompt as pieces: tools, system blocks, then each
// turn's content blocks.
func cachePieces(p *msgParams) []cachePiece {
	var raws []json.RawMessage
	var roles []string
	add := func(role string, list json.RawMessage) {
		var items []json.RawMessage
		if json.Unmarshal(list, &items) != nil { // a string: one piece, no breakpoint
			items = []json.RawMessage{list}
		}
		for _, it := range items {
			raws, roles = append(raws, it), append(roles, role)
		}
	}
	if present(p.members["tools"]) {
		add("tools", p.members["tools"])
	}
	if present(p.members["system"]) {
		add("system", p.members["system"])
	}
	for _, t := range p.Messages {
		add(t.Role, t.Content)
	}

	h := sha256.Sum256([]byte(p.model.ID))
	var pieces []cachePiece
	var bytesSoFar int
	for i, raw := range raws {
		var members map[string]json.RawMessage
		_ = json.Unmarshal(raw, &members) // a string piece has none
		cc, hasCC := members["cache_control"]
		delete(members, "cache_control")
		var compact bytes.Buffer
		_ = json.Compact(&compact, raw) // valid: the request form was checked
		bytesSoFar += compact.Len()
		stripped := []byte(raw)
		if members != nil {
			stripped = encodeJSON(members) // sorted keys: the same piece always hashes the same
		}
		h = sha256.Sum256(append(append(append(h[:], roles[i]...), 0), stripped...))
		pc := cachePiece{key: h, tokens: bytesSoFar / bytesPerToken, breakpoint: hasCC && present(cc), ttl: cacheTTL(cc)}
		pieces = append(pieces, pc)
	}
	if cc := p.members["cache_control"]; present(cc) && len(pieces) > 0 {
		last := &pieces[len(pieces)-1]
		last.breakpoint, last.ttl = true, cacheTTL(cc)
	}
	return pieces
}

// cacheTTL is the lifetime a cache_control asks for.
func cacheTTL(cc json.RawMessage) time.Duration {
	var v struct {
		TTL string `json:"ttl"`
	}
	_ = json.Unmarshal(cc, &v)
	if v.TTL == "1h" {
		return time.Hour
	}
	return 5 * time.Minute
}

// apply moves the cached tokens out of u.InputTokens into the cache fields.
func (c cacheUsage) apply(u *usageWire) {
	u.InputTokens -= c.created + c.read
	u.CacheCreationInputTokens, u.CacheReadInputTokens = c.created, c.read
	u.CacheCreation.Ephemeral5m, u.CacheCreation.Ephemeral1h = c.created5m, c.created1h
}
