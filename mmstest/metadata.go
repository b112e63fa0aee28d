package mmstest

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// The metadata member shared by the managed-agents resources: at most 16
// pairs, keys of 1 to 64 characters, values of at most 512.

// checkMetadata applies the metadata limits.
func checkMetadata(m map[string]string) error {
	if len(m) > wire.MaxMetadataPairs {
		return fmt.Errorf("metadata: at most %d pairs are allowed, got %d", wire.MaxMetadataPairs, len(m))
	}
	for k, v := range m {
		if n := textLen(k); n < 1 || n > wire.MaxMetadataKeyLen {
			return fmt.Errorf("metadata: keys must be 1 to %d characters, got %d", wire.MaxMetadataKeyLen, n)
		}
		if textLen(v) > wire.MaxMetadataValueLen {
			return fmt.Errorf("metadata.%s: values must be at most %d characters", k, wire.MaxMetadataValueLen)
		}
	}
	return nil
}

// patchMetadata applies a metadata member to cur and checks the result,
// which is a new map (older versions of a record keep theirs). On create
// every value must be a string; on update a key mapped to null is deleted,
// and so is one mapped to "" where the resource says so (emptyDeletes).
// An absent member (raw nil) keeps cur, or gives an empty map.
func patchMetadata(cur map[string]string, raw json.RawMessage, create, emptyDeletes bool) (map[string]string, error) {
	m := maps.Clone(cur)
	if m == nil {
		m = map[string]string{}
	}
	if raw == nil {
		return m, nil
	}
	var patch map[string]*string
	if err := json.Unmarshal(raw, &patch); err != nil || patch == nil {
		return nil, fmt.Errorf("metadata: Input should be an object of strings")
	}
	for k, v := range patch {
		switch {
		case v == nil && create:
			return nil, fmt.Errorf("metadata.%s: Input should be a valid string", k)
		case v == nil, emptyDeletes && !create && *v == "":
			delete(m, k)
		default:
			m[k] = *v
		}
	}
	return m, checkMetadata(m)
}

// nullAsAbsent reads a member whose null means "keep" (a vault's metadata
// on update) as absent.
func nullAsAbsent(raw json.RawMessage) json.RawMessage {
	if isNullJSON(raw) {
		return nil
	}
	return raw
}
