package mms

import (
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Types for the schema tables.

type stSimple struct {
	Name string  `json:"name"`
	Age  int     `json:"age,omitempty"`
	Nick *string `json:"nick"`
	Z    int     `json:"z,omitzero"`
}

type stTags struct {
	Title  string   `json:"title" description:"the title, short"`
	Color  string   `json:"color" enum:"red,green"`
	Level  *int     `json:"level" enum:"1,2,3"`
	Labels []string `json:"labels" enum:"a,b"`
	Mail   string   `json:"mail" format:"email"`
	ID     *string  `json:"id" format:"uuid" description:"optional id"`
	Ratio  float64  `json:"ratio" enum:"0.5,1.5"`
	On     bool     `json:"on" enum:"true"`
}

type stQuoted struct {
	N int      `json:"n,string"`
	B bool     `json:"b,string"`
	F *float64 `json:"f,string"`
	S string   `json:"s,string"`
}

type stHidden struct {
	Shown string `json:"shown"`
	//lint:ignore U1000 an unexported field: the schema must leave it out
	hidden string
	Skip   string `json:"-"`
	//lint:ignore SA5008 encoding/json names this field "-"; the schema must too
	Dash string `json:"-,"`
	//lint:ignore SA5008 an invalid tag name: encoding/json uses the Go name, and so must the schema
	Bad string `json:"bad\\name"`
}

type StInner struct {
	ID   int    `json:"id"`
	Note string `json:"note,omitempty"`
}

type StPtrInner struct {
	Extra string `json:"extra"`
}

type stEmbed struct {
	StInner
	*StPtrInner
	Own string `json:"own"`
}

type StLeft struct {
	Dup  string
	Tag  string
	Keep string `json:"keep"`
}

type StRight struct {
	Dup string
	Tag string `json:"Tag"`
}

type stConflict struct {
	StLeft
	StRight
}

type stNested struct {
	Point struct {
		X float64 `json:"x"`
		Y float64 `json:"y"`
	} `json:"point"`
	Lines []StInner `json:"lines"`
}

type stSelf struct {
	Value int     `json:"value"`
	Next  *stSelf `json:"next"`
}

type stMutualA struct {
	B *stMutualB `json:"b,omitempty"`
}

type stMutualB struct {
	A []stMutualA `json:"a"`
}

type stTree struct {
	Name     string   `json:"name"`
	Children []stTree `json:"children"`
}

type stGraph struct {
	Edges map[string]stGraph `json:"edges"`
}

type stHolder struct {
	Root stSelf  `json:"root"`
	Alt  *stSelf `json:"alt,omitempty"`
}

type stList []stList

// stText is a struct that encodes as text.
type stText struct{ a, b string }

func (t stText) MarshalText() ([]byte, error) { return []byte(t.a + "/" + t.b), nil }

func (t *stText) UnmarshalText(b []byte) error {
	a, c, ok := strings.Cut(string(b), "/")
	if !ok {
		return errors.New("no slash")
	}
	t.a, t.b = a, c
	return nil
}

// stOwn supplies its own schema.
type stOwn struct{ V json.RawMessage }

func (stOwn) JSONSchema() json.RawMessage {
	return json.RawMessage(`{ "type": "string", "minItems": 0 }`)
}

func (o stOwn) MarshalJSON() ([]byte, error) { return json.Marshal("own") }

func (o *stOwn) UnmarshalJSON(b []byte) error { o.V = append(o.V[:0], b...); return nil }

type stWithOwn struct {
	Own   stOwn  `json:"own"`
	Maybe *stOwn `json:"maybe"`
}

type stSpecial struct {
	When  time.Time       `json:"when"`
	Raw   json.RawMessage `json:"raw"`
	Any   any             `json:"any"`
	Num   json.Number     `json:"num"`
	Text  stText          `json:"text"`
	Bytes []byte          `json:"bytes"`
	Doc   []byte          `json:"doc" description:"a PDF"`
}

type stMapKeys struct {
	ByInt  map[int]string   `json:"by_int"`
	ByText map[stText]bool  `json:"by_text"`
	Nested map[string][]int `json:"nested"`
}
