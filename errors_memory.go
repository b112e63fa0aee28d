package mms

import (
	"encoding/json"
	"errors"

	"github.com/mms-sdk/mms-go/internal/wire"
)

// MemoryPathConflict is what a 409 memory_path_conflict_error says about
// the memory already at the path a create or update wanted.
type MemoryPathConflict struct {
	// MemoryID is the conflicting memory's id; "" when the service did not
	// say.
	MemoryID string
	// Path is the path in conflict; "" when the service did not say.
	Path string
}

// MemoryPathConflictOf returns the conflict an error reports when it is,
// or wraps, an [*Error] of type memory_path_conflict_error
// ([ErrMemoryPathConflict]); ok is false for any other error.
//
//	if c, ok := mms.MemoryPathConflictOf(err); ok {
//		log.Printf("%s is taken by %s", c.Path, c.MemoryID)
//	}
func MemoryPathConflictOf(err error) (c MemoryPathConflict, ok bool) {
	var e *Error
	if !errors.As(err, &e) || e.Type != wire.ErrMemoryPathConflict {
		return c, false
	}
	var body struct {
		Error struct {
			ConflictingMemoryID string `json:"conflicting_memory_id"`
			ConflictingPath     string `json:"conflicting_path"`
		} `json:"error"`
	}
	// The members are optional: a body without them (or not JSON at all)
	// still reports the conflict, with empty fields.
	_ = json.Unmarshal(e.Body, &body)
	return MemoryPathConflict{MemoryID: body.Error.ConflictingMemoryID, Path: body.Error.ConflictingPath}, true
}
