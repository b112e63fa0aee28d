package mms

// Pieces shared by the managed-agents services (agents, environments,
// sessions, vaults, memory stores, tunnels and user profiles): the beta
// of the first four, the tri-state update field and the metadata patch of
// update bodies, and the metadata rules. Their requests go through
// endpoint.go.

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/mms-sdk/mms-go/internal/codec"
	"github.com/mms-sdk/mms-go/internal/wire"
)

// BetaManagedAgents is the beta every managed-agents request carries
// (/v1/agents, /v1/sessions, /v1/environments, /v1/vaults). The services
// add it themselves, merged as a set with the client's and the call's
// betas.
const BetaManagedAgents = "managed-agents-2026-04-01"

// managedAgentsBetas is the endpoint beta list of every managed-agents
// request.
var managedAgentsBetas = []string{wire.BetaManagedAgents}

// managedEndpoint is the managed-agents endpoint at path (escaped), the
// beta added, answering a T.
func managedEndpoint[T any](c *Client, path string) endpoint[T] {
	return endpoint[T]{c: c, path: path, betas: managedAgentsBetas}
}

// updateState says what an [Update] asks for.
type updateState uint8

const (
	updateKeep updateState = iota
	updateSet
	updateClear
)

// Update is one optional field of an update request, in three states: the
// zero value leaves the field out (the service keeps its value), [Set]
// sends a new value, and [Clear] sends null (the service clears the
// field). Fields of this type carry omitzero, so only a set or cleared
// value is sent.
type Update[T any] struct {
	value T
	state updateState
}

// Set returns an [Update] that sets the field to v.
func Set[T any](v T) Update[T] { return Update[T]{value: v, state: updateSet} }

// Clear returns an [Update] that clears the field (sent as null).
func Clear[T any]() Update[T] { return Update[T]{state: updateClear} }

// IsZero reports whether the update leaves the field as it is (neither
// set nor cleared); omitzero leaves such a field out.
func (u Update[T]) IsZero() bool { return u.state == updateKeep }

// IsClear reports whether the update clears the field.
func (u Update[T]) IsClear() bool { return u.state == updateClear }

// Value returns the value a [Set] update sends, and whether it is one.
func (u Update[T]) Value() (T, bool) { return u.value, u.state == updateSet }

// Format prints a set value with the verb given, "null" for a cleared
// field and "<keep>" for one left as it is. Without it fmt would print the
// unexported value field by reflection, which skips the methods of what it
// holds (a [Secret] inside stays hidden either way: see [Secret]).
func (u Update[T]) Format(f fmt.State, verb rune) {
	switch u.state {
	case updateSet:
		fmt.Fprintf(f, fmt.FormatString(f, verb), u.value)
	case updateClear:
		io.WriteString(f, "null")
	default:
		io.WriteString(f, "<keep>")
	}
}

// errKeepUpdate is the error of encoding an Update that asks for nothing.
var errKeepUpdate = errors.New("mms: an Update that neither sets nor clears has no JSON form; tag its field omitzero")

// MarshalJSON writes the set value in request form, or null for a cleared
// field.
func (u Update[T]) MarshalJSON() ([]byte, error) {
	switch u.state {
	case updateSet:
		return codec.MarshalRequest(u.value)
	case updateClear:
		return []byte("null"), nil
	}
	return nil, errKeepUpdate
}

// UnmarshalJSON reads null as [Clear] and any other value as [Set].
func (u *Update[T]) UnmarshalJSON(data []byte) error {
	if codec.IsNull(data) {
		*u = Clear[T]()
		return nil
	}
	v, err := codec.Decode[T](data)
	if err != nil {
		return err
	}
	*u = Set(v)
	return nil
}

// MetadataPatch is the metadata member of an update request: each key
// mapped to a value is added or replaced, each key mapped to nil is
// deleted, and keys not named keep their values. Build one with
// [MetadataPatch.Set] and [MetadataPatch.Delete] on a made map, or as a
// literal with [Ptr].
type MetadataPatch map[string]*string

// Set adds or replaces key with value.
func (m MetadataPatch) Set(key, value string) MetadataPatch {
	m[key] = &value
	return m
}

// Delete deletes key (sent as key: null).
func (m MetadataPatch) Delete(key string) MetadataPatch {
	m[key] = nil
	return m
}

// The metadata limits of the managed-agents resources.
const (
	maxMetadataPairs    = 16
	maxMetadataKeyLen   = 64
	maxMetadataValueLen = 512
)

// validateMetadata checks a create request's metadata: at most 16 pairs,
// keys of 1 to 64 characters, values of at most 512.
func validateMetadata(path string, m map[string]string) error {
	if err := validateCount(path, len(m), maxMetadataPairs, "pairs"); err != nil {
		return err
	}
	for _, k := range sortedKeys(m) {
		v := m[k]
		if err := validateMetadataPair(path, k, &v); err != nil {
			return err
		}
	}
	return nil
}

// validate checks an update's metadata patch: at most 16 keys named, each
// of 1 to 64 characters, values of at most 512 (the service applies the
// 16-pair limit to the result too, which the SDK cannot see).
func (m MetadataPatch) validate(path string) error {
	if err := validateCount(path, len(m), maxMetadataPairs, "pairs"); err != nil {
		return err
	}
	for _, k := range sortedKeys(m) {
		if err := validateMetadataPair(path, k, m[k]); err != nil {
			return err
		}
	}
	return nil
}

// validateMetadataPair checks one key and, unless it is a deletion (nil),
// its value.
func validateMetadataPair(path, key string, value *string) error {
	if n := utf8.RuneCountInString(key); n < 1 || n > maxMetadataKeyLen {
		short := key
		if n > maxMetadataKeyLen+16 {
			short = string([]rune(key)[:maxMetadataKeyLen]) + "…"
		}
		return invalid(path, "keys must be 1 to %d characters, got %d in %q", maxMetadataKeyLen, n, short)
	}
	if value == nil {
		return nil
	}
	return validateLength(path+"."+key, *value, 0, maxMetadataValueLen)
}

// sortedKeys returns m's keys in order, so the first broken rule reported
// does not depend on map order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
