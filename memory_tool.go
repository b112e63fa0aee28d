package mms

import (
	"encoding/json"
	"fmt"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// A MemoryCommand is one call of the memory tool ([MemoryTool]): the input
// the model writes in its tool_use block, told apart by its "command".
// Variants: [MemoryViewCommand], [MemoryCreateCommand],
// [MemoryStrReplaceCommand], [MemoryInsertCommand], [MemoryDeleteCommand],
// [MemoryRenameCommand] and [UnknownMemoryCommand]. [ParseMemoryCommand]
// decodes one; [MemoryDir] carries them out on a local directory.
type MemoryCommand interface {
	json.Marshaler
	isMemoryCommand()
}

var memoryCommandUnion = codec.NewUnion[MemoryCommand]("MemoryCommand", UnknownMemoryCommand{}).
	Key("command").
	Add("view", MemoryViewCommand{}).
	Add("create", MemoryCreateCommand{}).
	Add("str_replace", MemoryStrReplaceCommand{}).
	Add("insert", MemoryInsertCommand{}).
	Add("delete", MemoryDeleteCommand{}).
	Add("rename", MemoryRenameCommand{})

// ParseMemoryCommand decodes a memory tool call's input. A command this
// SDK version does not know is an [UnknownMemoryCommand], not an error;
// input that is not a JSON object with a string "command" is.
func ParseMemoryCommand(input json.RawMessage) (MemoryCommand, error) {
	// The codec's decoders leave validation to where bytes enter the SDK:
	// here.
	if err := codec.Valid(input); err != nil {
		return nil, fmt.Errorf("mms: memory command: %w", err)
	}
	return memoryCommandUnion.Decode(input)
}

// MemoryViewCommand ("view") shows a directory's listing or a file's
// lines.
//
//mms:json
type MemoryViewCommand struct {
	// Path is the file or directory, under /memories.
	Path string `json:"path"`
	// ViewRange, for a file, limits the view to lines [start, end],
	// 1-based; an end of -1 reads to the last line. Nil shows every line.
	ViewRange *[2]int `json:"view_range,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MemoryCreateCommand ("create") writes a file, replacing one at Path.
//
//mms:json
type MemoryCreateCommand struct {
	// Path is the file, under /memories.
	Path string `json:"path"`
	// FileText is the file's whole content.
	FileText string `json:"file_text"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MemoryStrReplaceCommand ("str_replace") replaces the one occurrence of
// OldStr in a file.
//
//mms:json
type MemoryStrReplaceCommand struct {
	// Path is the file, under /memories.
	Path string `json:"path"`
	// OldStr must occur exactly once in the file.
	OldStr string `json:"old_str"`
	// NewStr replaces it ("" deletes it).
	NewStr string `json:"new_str"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MemoryInsertCommand ("insert") inserts text after a line of a file.
//
//mms:json
type MemoryInsertCommand struct {
	// Path is the file, under /memories.
	Path string `json:"path"`
	// InsertLine is the line after which the text goes; 0 inserts at the
	// top.
	InsertLine int `json:"insert_line"`
	// InsertText is the text inserted.
	InsertText string `json:"insert_text"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MemoryDeleteCommand ("delete") deletes a file or a directory with
// everything in it.
//
//mms:json
type MemoryDeleteCommand struct {
	// Path is the file or directory, under /memories.
	Path string `json:"path"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// MemoryRenameCommand ("rename") moves a file or a directory.
//
//mms:json
type MemoryRenameCommand struct {
	// OldPath is what is moved, under /memories.
	OldPath string `json:"old_path"`
	// NewPath is where it goes, under /memories; nothing may be there.
	NewPath string `json:"new_path"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

// UnknownMemoryCommand keeps a command this SDK version cannot name; Type
// is its "command". It is sent back as it came.
type UnknownMemoryCommand struct {
	Type string
	Raw  json.RawMessage
}
