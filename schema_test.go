package mms

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/mms-sdk/mms-go/internal/jsonschema"

	"github.com/stretchr/testify/require"
)

type schemaCase struct {
	typ            reflect.Type
	want           string // golden schema
	accept, reject []string
}

func schemaCases() []schemaCase {
	tf := func(v any) reflect.Type { return reflect.TypeOf(v).Elem() }
	return []schemaCase{
		{tf((*bool)(nil)), `{"type":"boolean"}`, []string{`true`, `false`}, []string{`null`, `0`, `"true"`}},
		{tf((*int)(nil)), `{"type":"integer"}`, []string{`0`, `-7`, `3.0`, `1e2`}, []string{`1.5`, `"1"`, `null`}},
		{tf((*uint8)(nil)), `{"type":"integer"}`, []string{`255`}, []string{`true`}},
		{tf((*float64)(nil)), `{"type":"number"}`, []string{`1.5`, `-2`, `1e-9`}, []string{`"1.5"`, `null`}},
		{tf((*string)(nil)), `{"type":"string"}`, []string{`""`, `"héllo"`}, []string{`1`, `null`, `[]`}},
		{tf((**int)(nil)), `{"type":["integer","null"]}`, []string{`1`, `null`}, []string{`"1"`, `1.5`}},
		{tf((*[]string)(nil)), `{"type":"array","items":{"type":"string"}}`, []string{`[]`, `["a","b"]`}, []string{`null`, `[1]`, `"a"`}},
		{tf((*[3]int)(nil)), `{"type":"array","items":{"type":"integer"},"minItems":3,"maxItems":3}`, []string{`[1,2,3]`}, []string{`[1,2]`, `[1,2,3,4]`, `[1,2,"3"]`}},
		{tf((*[][]int)(nil)), `{"type":"array","items":{"type":"array","items":{"type":"integer"}}}`, []string{`[[],[1]]`}, []string{`[1]`, `[[1.5]]`}},
		{tf((*map[string]int)(nil)), `{"type":"object","additionalProperties":{"type":"integer"}}`, []string{`{}`, `{"a":1,"b c":2}`}, []string{`{"a":"1"}`, `[]`, `null`}},
		{tf((*[]byte)(nil)), `{"type":"string","description":"base64-encoded bytes"}`, []string{`"aGk="`}, []string{`[104,105]`}},
		{tf((*time.Time)(nil)), `{"type":"string","format":"date-time"}`, []string{`"2026-01-02T03:04:05Z"`, `"2026-01-02T03:04:05.5+02:00"`}, []string{`"2026-01-02"`, `"yesterday"`, `0`}},
		{tf((*json.RawMessage)(nil)), `{}`, []string{`null`, `1`, `{"a":[true]}`}, []string{`{`}},
		{tf((*any)(nil)), `{}`, []string{`null`, `"x"`, `[1,{}]`}, []string{`nul`}},
		{tf((*json.Number)(nil)), `{"type":"number"}`, []string{`12`, `1.25e3`}, []string{`"12"`}},
		{tf((*stText)(nil)), `{"type":"string"}`, []string{`"a/b"`}, []string{`{}`}},
		{tf((*stOwn)(nil)), `{"type":"string","minItems":0}`, []string{`"own"`}, []string{`1`}},
		{tf((*stSimple)(nil)),
			`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"nick":{"type":["string","null"]},"z":{"type":"integer"}},"required":["name"],"additionalProperties":false}`,
			[]string{`{"name":"a"}`, `{"name":"a","age":3,"nick":null,"z":0}`, `{"name":"a","nick":"b"}`},
			[]string{`{}`, `{"name":"a","extra":1}`, `{"name":1}`, `{"name":"a","age":"3"}`, `null`}},
		{tf((**stSimple)(nil)),
			`{"type":["object","null"],"properties":{"name":{"type":"string"},"age":{"type":"integer"},"nick":{"type":["string","null"]},"z":{"type":"integer"}},"required":["name"],"additionalProperties":false}`,
			[]string{`null`, `{"name":"a"}`}, []string{`{}`, `[]`}},
		{tf((*stTags)(nil)),
			`{"type":"object","properties":{"title":{"type":"string","description":"the title, short"},"color":{"type":"string","enum":["red","green"]},"level":{"type":["integer","null"],"enum":[1,2,3,null]},"labels":{"type":"array","items":{"type":"string","enum":["a","b"]}},"mail":{"type":"string","format":"email"},"id":{"type":["string","null"],"description":"optional id","format":"uuid"},"ratio":{"type":"number","enum":[0.5,1.5]},"on":{"type":"boolean","enum":[true]}},"required":["title","color","labels","mail","ratio","on"],"additionalProperties":false}`,
			[]string{
				`{"title":"t","color":"red","labels":[],"mail":"a@b.c","ratio":0.5,"on":true}`,
				`{"title":"t","color":"green","level":3,"labels":["b","a"],"mail":"a@b","id":"123e4567-e89b-12d3-a456-426614174000","ratio":1.5,"on":true}`,
				`{"title":"t","color":"red","level":null,"labels":[],"mail":"a@b.c","id":null,"ratio":0.50,"on":true}`,
			},
			[]string{
				`{"title":"t","color":"blue","labels":[],"mail":"a@b.c","ratio":0.5,"on":true}`,
				`{"title":"t","color":"red","level":4,"labels":[],"mail":"a@b.c","ratio":0.5,"on":true}`,
				`{"title":"t","color":"red","labels":["c"],"mail":"a@b.c","ratio":0.5,"on":true}`,
				`{"title":"t","color":"red","labels":[],"mail":"ab.c","ratio":0.5,"on":true}`,
				`{"title":"t","color":"red","labels":[],"mail":"a@b.c","id":"nope","ratio":0.5,"on":true}`,
				`{"title":"t","color":"red","labels":[],"mail":"a@b.c","ratio":1,"on":true}`,
				`{"title":"t","color":"red","labels":[],"mail":"a@b.c","ratio":0.5,"on":false}`,
			}},
		{tf((*stQuoted)(nil)),
			`{"type":"object","properties":{"n":{"type":"string","pattern":"^-?(0|[1-9][0-9]*)$"},"b":{"type":"string","pattern":"^(true|false)$"},"f":{"type":["string","null"],"pattern":"^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$"},"s":{"type":"string","pattern":"^\".*\"$"}},"required":["n","b","s"],"additionalProperties":false}`,
			[]string{`{"n":"-12","b":"true","s":"\"x\""}`, `{"n":"0","b":"false","f":"1.5e3","s":"\"\""}`, `{"n":"1","b":"true","f":null,"s":"\"x\""}`},
			[]string{`{"n":12,"b":"true","s":"\"x\""}`, `{"n":"1","b":"yes","s":"\"x\""}`, `{"n":"1","b":"true","s":"x"}`, `{"n":"1","b":"true","f":"1,5","s":"\"x\""}`}},
		{tf((*stHidden)(nil)),
			`{"type":"object","properties":{"shown":{"type":"string"},"-":{"type":"string"},"Bad":{"type":"string"}},"required":["shown","-","Bad"],"additionalProperties":false}`,
			[]string{`{"shown":"","-":"","Bad":""}`}, []string{`{"shown":"","-":"","Bad":"","hidden":""}`, `{"shown":"","-":"","Bad":"","Skip":""}`, `{"shown":""}`}},
		{tf((*stEmbed)(nil)),
			`{"type":"object","properties":{"id":{"type":"integer"},"note":{"type":"string"},"extra":{"type":"string"},"own":{"type":"string"}},"required":["id","own"],"additionalProperties":false}`,
			[]string{`{"id":1,"own":"o"}`, `{"id":1,"note":"n","extra":"e","own":"o"}`}, []string{`{"own":"o"}`, `{"id":1,"own":"o","StInner":{}}`}},
		{tf((*stConflict)(nil)),
			`{"type":"object","properties":{"keep":{"type":"string"},"Tag":{"type":"string"}},"required":["keep","Tag"],"additionalProperties":false}`,
			[]string{`{"keep":"k","Tag":"t"}`}, []string{`{"keep":"k","Tag":"t","Dup":"d"}`}},
		{tf((*stNested)(nil)),
			`{"type":"object","properties":{"point":{"type":"object","properties":{"x":{"type":"number"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false},"lines":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"note":{"type":"string"}},"required":["id"],"additionalProperties":false}}},"required":["point","lines"],"additionalProperties":false}`,
			[]string{`{"point":{"x":1,"y":2},"lines":[{"id":1},{"id":2,"note":""}]}`},
			[]string{`{"point":{"x":1},"lines":[]}`, `{"point":{"x":1,"y":2},"lines":[{"id":1},{"id":"2"}]}`, `{"point":{"x":1,"y":2,"z":3},"lines":[]}`}},
		{tf((*stSelf)(nil)),
			`{"type":"object","properties":{"value":{"type":"integer"},"next":{"anyOf":[{"$ref":"#"},{"type":"null"}]}},"required":["value"],"additionalProperties":false}`,
			[]string{`{"value":1}`, `{"value":1,"next":{"value":2,"next":null}}`}, []string{`{"value":1,"next":{}}`, `{"value":1,"next":{"value":2,"next":{"value":"3"}}}`}},
		{tf((*stMutualA)(nil)),
			`{"type":"object","properties":{"b":{"type":["object","null"],"properties":{"a":{"type":"array","items":{"$ref":"#"}}},"required":["a"],"additionalProperties":false}},"additionalProperties":false}`,
			[]string{`{}`, `{"b":{"a":[{},{"b":null}]}}`}, []string{`{"b":{}}`, `{"b":{"a":[{"b":{"a":[{"c":1}]}}]}}`}},
		{tf((*stTree)(nil)),
			`{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#"}}},"required":["name","children"],"additionalProperties":false}`,
			[]string{`{"name":"r","children":[{"name":"c","children":[]}]}`}, []string{`{"name":"r","children":[{"name":"c"}]}`}},
		{tf((*stGraph)(nil)),
			`{"type":"object","properties":{"edges":{"type":"object","additionalProperties":{"$ref":"#"}}},"required":["edges"],"additionalProperties":false}`,
			[]string{`{"edges":{"a":{"edges":{}}}}`}, []string{`{"edges":{"a":{}}}`, `{"edges":{"a":1}}`}},
		{tf((*stHolder)(nil)),
			`{"type":"object","properties":{"root":{"$ref":"#/$defs/stSelf"},"alt":{"anyOf":[{"$ref":"#/$defs/stSelf"},{"type":"null"}]}},"required":["root"],"additionalProperties":false,"$defs":{"stSelf":{"type":"object","properties":{"value":{"type":"integer"},"next":{"anyOf":[{"$ref":"#/$defs/stSelf"},{"type":"null"}]}},"required":["value"],"additionalProperties":false}}}`,
			[]string{`{"root":{"value":1,"next":{"value":2}},"alt":null}`}, []string{`{"root":{"value":1,"next":{"value":true}}}`, `{"root":{"value":1},"alt":{}}`}},
		{tf((*stList)(nil)), `{"type":"array","items":{"$ref":"#"}}`, []string{`[]`, `[[],[[]]]`}, []string{`[1]`, `[[{}]]`}},
		{tf((*stWithOwn)(nil)),
			`{"type":"object","properties":{"own":{"type":"string","minItems":0},"maybe":{"anyOf":[{"type":"string","minItems":0},{"type":"null"}]}},"required":["own"],"additionalProperties":false}`,
			[]string{`{"own":"x","maybe":null}`, `{"own":"x","maybe":"y"}`}, []string{`{"own":1}`, `{"own":"x","maybe":2}`}},
		{tf((*stSpecial)(nil)),
			`{"type":"object","properties":{"when":{"type":"string","format":"date-time"},"raw":{},"any":{},"num":{"type":"number"},"text":{"type":"string"},"bytes":{"type":"string","description":"base64-encoded bytes"},"doc":{"type":"string","description":"a PDF"}},"required":["when","raw","any","num","text","bytes","doc"],"additionalProperties":false}`,
			[]string{`{"when":"2026-01-02T03:04:05Z","raw":[1],"any":null,"num":1,"text":"a/b","bytes":"","doc":"aGk="}`},
			[]string{`{"when":"2026-01-02","raw":[1],"any":null,"num":1,"text":"a/b","bytes":"","doc":""}`, `{"when":"2026-01-02T03:04:05Z","raw":[1],"any":null,"num":"1","text":"a/b","bytes":"","doc":""}`}},
		{tf((*stMapKeys)(nil)),
			`{"type":"object","properties":{"by_int":{"type":"object","additionalProperties":{"type":"string"}},"by_text":{"type":"object","additionalProperties":{"type":"boolean"}},"nested":{"type":"object","additionalProperties":{"type":"array","items":{"type":"integer"}}}},"required":["by_int","by_text","nested"],"additionalProperties":false}`,
			[]string{`{"by_int":{"1":"a"},"by_text":{"a/b":true},"nested":{"x":[1]}}`}, []string{`{"by_int":{"1":1},"by_text":{},"nested":{}}`, `{"by_int":{},"by_text":{},"nested":{"x":[true]}}`}},
	}
}

func TestSchemaForTable(t *testing.T) {
	cases := schemaCases()
	if len(cases) < 30 {
		t.Fatalf("%d types, want at least 30", len(cases))
	}
	for _, c := range cases {
		t.Run(c.typ.String(), func(t *testing.T) {
			got, err := SchemaOf(c.typ)
			require.NoError(t, err)
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("schema is not JSON: %v\n%s", err, got)
			}
			if err := json.Unmarshal([]byte(c.want), &w); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(w, g); d != "" {
				t.Errorf("schema (-want +got):\n%s\ngot %s", d, got)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, got); err != nil || !bytes.Equal(compact.Bytes(), got) {
				t.Errorf("schema is not compact: %s", got)
			}
			for _, doc := range c.accept {
				if err := jsonschema.Validate(got, []byte(doc)); err != nil {
					t.Errorf("rejects %s: %v", doc, err)
				}
			}
			for _, doc := range c.reject {
				if err := jsonschema.Validate(got, []byte(doc)); err == nil {
					t.Errorf("accepts %s", doc)
				}
			}
		})
	}
}

// TestSchemaForEncodedValues checks that values encoding/json writes for each
// table type validate against its schema.
func TestSchemaForEncodedValues(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, c := range schemaCases() {
		t.Run(c.typ.String(), func(t *testing.T) {
			s, err := SchemaOf(c.typ)
			require.NoError(t, err)
			for range 200 {
				v := randomValue(rnd, c.typ, "", 0)
				doc, err := json.Marshal(v.Interface())
				require.NoError(t, err)
				if err := jsonschema.Validate(s, doc); err != nil {
					t.Fatalf("%s: %v", doc, err)
				}
			}
		})
	}
}

// randomValue builds a value of t for encoding: slices and maps non-nil,
// enum- and format-tagged strings valid, recursion bounded.
func randomValue(r *rand.Rand, t reflect.Type, tag reflect.StructTag, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t {
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(time.Unix(r.Int64N(4e9), r.Int64N(1e9)).UTC()))
		return v
	case reflect.TypeFor[json.RawMessage]():
		v.SetBytes([]byte([]string{`null`, `{"a":[1,"x"]}`, `true`}[r.IntN(3)]))
		return v
	case reflect.TypeFor[json.Number]():
		v.SetString([]string{"0", "-1.5", "2e10"}[r.IntN(3)])
		return v
	case reflect.TypeFor[stText]():
		v.Set(reflect.ValueOf(stText{a: "x", b: "y"}))
		return v
	case reflect.TypeFor[stOwn]():
		return v
	}
	if e := tag.Get("enum"); e != "" && t.Kind() != reflect.Pointer && t.Kind() != reflect.Slice {
		vals := strings.Split(e, ",")
		if err := json.Unmarshal([]byte(quoteIfString(t, vals[r.IntN(len(vals))])), v.Addr().Interface()); err != nil {
			panic(err)
		}
		return v
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(r.Uint64()) >> (64 - t.Bits()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(r.Uint64() >> (64 - t.Bits()))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(r.NormFloat64() * 1e6)
	case reflect.String:
		switch tag.Get("format") {
		case "email":
			v.SetString("user@example.com")
		case "uuid":
			v.SetString("123e4567-e89b-12d3-a456-426614174000")
		default:
			v.SetString(string([]rune{rune(r.IntN(0x3000)), 'a', rune(r.IntN(128))}))
		}
	case reflect.Pointer:
		if depth < 3 && r.IntN(3) > 0 {
			p := reflect.New(t.Elem())
			p.Elem().Set(randomValue(r, t.Elem(), tag, depth+1))
			v.Set(p)
		}
	case reflect.Slice:
		n := 0
		if depth < 3 {
			n = r.IntN(3)
		}
		v.Set(reflect.MakeSlice(t, n, n))
		for i := range n {
			v.Index(i).Set(randomValue(r, t.Elem(), tag, depth+1))
		}
	case reflect.Array:
		for i := range t.Len() {
			v.Index(i).Set(randomValue(r, t.Elem(), tag, depth+1))
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(t))
		if depth < 3 {
			for range r.IntN(3) {
				v.SetMapIndex(randomValue(r, t.Key(), "", depth+1), randomValue(r, t.Elem(), "", depth+1))
			}
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				v.Field(i).Set(randomValue(r, f.Type, f.Tag, depth+1))
			}
		}
	case reflect.Interface:
		if r.IntN(2) == 0 {
			v.Set(reflect.ValueOf(map[string]any{"k": []any{1.5, "s", nil}}))
		}
	}
	return v
}

func quoteIfString(t reflect.Type, s string) string {
	if t.Kind() == reflect.String {
		b, _ := json.Marshal(s)
		return string(b)
	}
	return s
}

type (
	stFunc      struct{ F func() }
	stChan      struct{ C chan int }
	stComplex   struct{ C complex128 }
	stUnsafe    struct{ P unsafe.Pointer }
	stIface     struct{ E error }
	stBadKey    struct{ M map[[2]int]string }
	stMarshaler struct{ M stMarsh }
	stMarsh     struct{ X int }
	stBadEnum   struct {
		N int `enum:"1,x"`
	}
	stBadBool struct {
		B bool `enum:"yes"`
	}
	stBadFormat struct {
		S string `format:"regex"`
	}
	stFormatOnInt struct {
		N int `format:"date"`
	}
	stEnumOnStruct struct {
		S StInner `enum:"a"`
	}
	stDescOnOwn struct {
		O stOwn `description:"mine"`
	}
	stOrder struct {
		Items []stItem
	}
	stItem struct {
		Price complex64
	}
	stTextOnly  struct{ T stHalfText }
	stHalfText  struct{ X int }
	stEmptyEnum struct {
		S string `enum:""`
	}
	stDupEnum struct {
		S string `enum:"a,a"`
	}
	stQuotedEnum struct {
		N int `json:",string" enum:"1"`
	}
	stTimeFormat struct {
		T time.Time `format:"date"`
	}
	stOverflowEnum struct {
		N int8 `enum:"300"`
	}
	stMapEnum struct {
		M map[string]string `enum:"a"`
	}
	stEmbedUnexported struct {
		*stHidden2
	}
	stHidden2 struct{ X int }
)

func (stMarsh) MarshalJSON() ([]byte, error)    { return []byte(`1`), nil }
func (stHalfText) MarshalText() ([]byte, error) { return []byte("x"), nil }

func TestSchemaForErrors(t *testing.T) {
	tf := func(v any) reflect.Type { return reflect.TypeOf(v).Elem() }
	for _, c := range []struct {
		typ        reflect.Type
		path, word string
	}{
		{tf((*func())(nil)), "", "func"},
		{tf((*stFunc)(nil)), "stFunc.F", "func"},
		{tf((*stChan)(nil)), "stChan.C", "chan"},
		{tf((*stComplex)(nil)), "stComplex.C", "complex128"},
		{tf((*stUnsafe)(nil)), "stUnsafe.P", "unsafe"},
		{tf((*stIface)(nil)), "stIface.E", "interface"},
		{tf((*stBadKey)(nil)), "stBadKey.M", "map key"},
		{tf((*stMarshaler)(nil)), "stMarshaler.M", "json.Marshaler"},
		{tf((*stBadEnum)(nil)), "stBadEnum.N", `"x"`},
		{tf((*stBadBool)(nil)), "stBadBool.B", `"yes"`},
		{tf((*stBadFormat)(nil)), "stBadFormat.S", "not supported"},
		{tf((*stFormatOnInt)(nil)), "stFormatOnInt.N", "not a string"},
		{tf((*stEnumOnStruct)(nil)), "stEnumOnStruct.S", "enum"},
		{tf((*stDescOnOwn)(nil)), "stDescOnOwn.O", "JSONSchema"},
		{tf((*stOrder)(nil)), "stOrder.Items[].Price", "complex64"},
		{tf((*stTextOnly)(nil)), "stTextOnly.T", "TextUnmarshaler"},
		{tf((*stEmptyEnum)(nil)), "stEmptyEnum.S", "empty"},
		{tf((*stDupEnum)(nil)), "stDupEnum.S", "repeated"},
		{tf((*stQuotedEnum)(nil)), "stQuotedEnum.N", ",string"},
		{tf((*stTimeFormat)(nil)), "stTimeFormat.T", "date-time"},
		{tf((*stOverflowEnum)(nil)), "stOverflowEnum.N", `"300"`},
		{tf((*stMapEnum)(nil)), "stMapEnum.M", "enum"},
		{tf((*stEmbedUnexported)(nil)), "stEmbedUnexported.stHidden2.X", "unexported"},
		{tf((*[]map[bool]int)(nil)), "[]", "map key"},
	} {
		t.Run(c.typ.String(), func(t *testing.T) {
			s, err := SchemaOf(c.typ)
			var se *SchemaError
			if !errors.As(err, &se) {
				t.Fatalf("got %s, %v; want a *SchemaError", s, err)
			}
			if se.Path != c.path || !strings.Contains(se.Reason, c.word) || se.Type != c.typ {
				t.Errorf("got %#v, want path %q, a reason with %q", se, c.path, c.word)
			}
			if !strings.Contains(err.Error(), c.path) {
				t.Errorf("message %q does not name %q", err, c.path)
			}
		})
	}
}

type stCacheProbe struct {
	A string `json:"a"`
}

func TestSchemaForCache(t *testing.T) {
	a, err := SchemaFor[stCacheProbe]()
	require.NoError(t, err)
	want := string(a)
	a[2] = 'X'
	b, _ := SchemaFor[stCacheProbe]()
	if string(b) != want {
		t.Errorf("mutating the returned schema changed the cache: %s", b)
	}
	_, err1 := SchemaFor[stFunc]()
	err1.(*SchemaError).Path = "changed"
	_, err2 := SchemaFor[stFunc]()
	if err2.(*SchemaError).Path != "stFunc.F" {
		t.Errorf("mutating the returned error changed the cache: %v", err2)
	}
}

// A fresh type per call site is not possible at run time, so the concurrent
// first calls go to types no other test asks for.
type (
	stConcA struct{ A []stConcA }
	stConcB struct{ B map[string]int }
)

func TestSchemaForConcurrentFirstCalls(t *testing.T) {
	var wg sync.WaitGroup
	out := make([][2]string, 8)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a, _ := SchemaFor[stConcA]()
			b, _ := SchemaFor[stConcB]()
			out[i] = [2]string{string(a), string(b)}
		}()
	}
	wg.Wait()
	for _, o := range out[1:] {
		if o != out[0] || o[0] == "" || o[1] == "" {
			t.Fatalf("concurrent calls disagree: %q vs %q", o, out[0])
		}
	}
}

func TestDecodeSchemaValue(t *testing.T) {
	type item struct {
		Price float64 `json:"price"`
	}
	type order struct {
		Items []item `json:"items"`
		Small int8   `json:"small"`
	}
	for _, c := range []struct {
		name, doc, err string
	}{
		{"ok", `{"items":[{"price":1.5}],"small":1}`, ""},
		{"wrong type", `{"items":[{"price":1},{"price":2},{"price":"3"}],"small":1}`, "$.items[2].price: want number, got string"},
		{"missing", `{"items":[]}`, "$.small: is required"},
		{"extra", `{"items":[],"small":1,"big":2}`, "$.big: is not allowed"},
		{"overflow", `{"items":[],"small":300}`, "$.small: want int8"},
		{"not JSON", `{"items":`, "$: invalid JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := decodeSchemaValue[order]([]byte(c.doc))
			if c.err == "" {
				if err != nil || len(v.Items) != 1 || v.Items[0].Price != 1.5 {
					t.Fatalf("got %+v, %v", v, err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Fatalf("got %v, want an error starting %q", err, c.err)
			}
		})
	}
	if _, err := decodeSchemaValue[stFunc]([]byte(`{}`)); err == nil {
		t.Error("a type without a schema decodes")
	}
}
