package mms

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/mms-sdk/mms-go/internal/codec"
)

// URLSources is the web_fetch tool's url_sources (GA, every web_fetch
// version): which sources contribute the URLs the tool may fetch. A nil
// member (and a nil URLSources) leaves that source on.
//
//	URLSources: &mms.URLSources{
//		UserInput:         mms.URLSourceFilterAll{},
//		ClientToolResults: mms.URLSourceFilterNone{},
//		ServerToolResults: mms.URLSourceFilterOnly{Tools: []mms.ToolRef{{Name: "web_search"}}},
//	}
//
//mms:json request
type URLSources struct {
	// UserInput is URLSourceFilterAll or URLSourceFilterNone: whether URLs
	// in the user's messages count.
	UserInput URLSourceFilter `json:"user_input,omitzero"`
	// ClientToolResults says which client tools' results count. Tools
	// named in an only or except filter must be declared in the request's
	// tools.
	ClientToolResults URLSourceFilter `json:"client_tool_results,omitzero"`
	// ServerToolResults says which server tools' results count; only
	// web_search and web_fetch results ever do. Named tools must be
	// declared in the request's tools.
	ServerToolResults URLSourceFilter `json:"server_tool_results,omitzero"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (s *URLSources) validate(path string) error {
	if s == nil {
		return nil
	}
	switch s.UserInput.(type) {
	case nil, URLSourceFilterAll, URLSourceFilterNone, UnknownURLSourceFilter:
	default:
		return invalid(path+".user_input.type", `must be "all" or "none"`)
	}
	for _, f := range []struct {
		name   string
		filter URLSourceFilter
	}{{"user_input", s.UserInput}, {"client_tool_results", s.ClientToolResults}, {"server_tool_results", s.ServerToolResults}} {
		if f.filter != nil {
			if err := f.filter.validate(path + "." + f.name); err != nil {
				return err
			}
		}
	}
	return nil
}

// A URLSourceFilter selects the sources of one kind whose URLs count.
// Variants: [URLSourceFilterAll], [URLSourceFilterNone],
// [URLSourceFilterOnly], [URLSourceFilterExcept] and
// [UnknownURLSourceFilter].
type URLSourceFilter interface {
	isURLSourceFilter()
	validate(path string) error
}

var urlSourceFilterUnion = codec.NewUnion[URLSourceFilter]("URLSourceFilter", UnknownURLSourceFilter{}).
	Add("all", URLSourceFilterAll{}).
	Add("none", URLSourceFilterNone{}).
	Add("only", URLSourceFilterOnly{}).
	Add("except", URLSourceFilterExcept{})

// URLSourceFilterAll counts every source of the kind.
//
//mms:json request
type URLSourceFilterAll struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (URLSourceFilterAll) validate(string) error { return nil }

// URLSourceFilterNone counts no source of the kind.
//
//mms:json request
type URLSourceFilterNone struct {
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (URLSourceFilterNone) validate(string) error { return nil }

// URLSourceFilterOnly counts the results of the named tools only.
//
//mms:json request
type URLSourceFilterOnly struct {
	// Tools name tools declared in the request's tools.
	Tools []ToolRef `json:"tools"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (f URLSourceFilterOnly) validate(path string) error {
	return validateToolRefs(path+".tools", f.Tools)
}

// URLSourceFilterExcept counts the results of every tool but the named
// ones.
//
//mms:json request
type URLSourceFilterExcept struct {
	// Tools name tools declared in the request's tools.
	Tools []ToolRef `json:"tools"`
	// Extra keeps what this SDK version does not model; see [Extra].
	Extra map[string]json.RawMessage `json:"-"`
}

func (f URLSourceFilterExcept) validate(path string) error {
	return validateToolRefs(path+".tools", f.Tools)
}

// UnknownURLSourceFilter holds a filter type this SDK version cannot name.
// Raw is written back verbatim.
type UnknownURLSourceFilter struct {
	Type string
	Raw  json.RawMessage
}

func (f UnknownURLSourceFilter) validate(path string) error {
	if !codec.IsObject(f.Raw) {
		return invalid(path, "must hold a JSON object")
	}
	return nil
}

func validateToolRefs(path string, refs []ToolRef) error {
	if refs == nil {
		return invalid(path, "is required")
	}
	for i, r := range refs {
		if err := r.validate(fmt.Sprintf("%s[%d]", path, i)); err != nil {
			return err
		}
	}
	return nil
}

// filterRefs returns the tools an only or except filter names.
func filterRefs(f URLSourceFilter) []ToolRef {
	switch f := f.(type) {
	case URLSourceFilterOnly:
		return f.Tools
	case URLSourceFilterExcept:
		return f.Tools
	}
	return nil
}

// checkURLSourceTools requires every tool a web_fetch url_sources filter
// names to be declared in the same tools list (the service answers
// tool_reference_unresolved otherwise). Declared are the names of named
// tools (a versioned tool's fixed name when its Name is empty, an unknown
// tool's "name" member) and the members of the computer and browser
// toolsets present.
func checkURLSourceTools(path string, ts Tools) error {
	var declared map[string]bool
	for i, t := range ts {
		wf, ok := t.(WebFetchTool)
		if !ok || wf.URLSources == nil {
			continue
		}
		if declared == nil {
			declared = declaredToolNames(ts)
		}
		for _, f := range []struct {
			name   string
			filter URLSourceFilter
		}{{"client_tool_results", wf.URLSources.ClientToolResults}, {"server_tool_results", wf.URLSources.ServerToolResults}} {
			for j, r := range filterRefs(f.filter) {
				if !declared[r.Name] {
					return invalid(fmt.Sprintf("%s[%d].url_sources.%s.tools[%d].name", path, i, f.name, j),
						"names tool %q, which the request's tools do not declare", r.Name)
				}
			}
		}
	}
	return nil
}

// declaredToolNames returns the names the tools list declares.
func declaredToolNames(ts Tools) map[string]bool {
	names := map[string]bool{}
	for _, t := range ts {
		switch t := t.(type) {
		case nil:
		case ComputerToolset:
			for _, m := range computerToolsetMembers() {
				names[m] = true
			}
		case BrowserToolset:
			for _, m := range browserToolsetMembers() {
				names[m] = true
			}
		case UnknownTool:
			var name string
			if raw := codec.Member(t.Raw, "name"); raw != nil && json.Unmarshal(raw, &name) == nil {
				names[name] = true
			}
		default:
			// Every named tool type has a Name field; a versioned one
			// also a Version, whose fixed name an empty Name stands for.
			v := reflect.Indirect(reflect.ValueOf(t))
			if v.Kind() != reflect.Struct {
				continue
			}
			name := v.FieldByName("Name")
			if !name.IsValid() || name.Kind() != reflect.String {
				continue
			}
			n := name.String()
			if version := v.FieldByName("Version"); n == "" && version.IsValid() && version.Kind() == reflect.String {
				n = fixedToolName(version.String())
			}
			if n != "" {
				names[n] = true
			}
		}
	}
	return names
}
