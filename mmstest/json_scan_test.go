package mmstest

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSONScanner compares the scanner with encoding/json on the forms it
// must cut right: whitespace, escapes, brackets inside strings, scalars.
func TestJSONScanner(t *testing.T) {
	for _, doc := range []string{
		`{}`,
		` { "a" : 1 , "b":[ 1, "x]}" ,{"c":"\"}"}] ,"d\u0065":  true,"e":null, "f":-1.5e3 } `,
		`{"s":"a\\","t":"\\\"","u":{"v":[[],{}]},"w":false}`,
	} {
		var want map[string]json.RawMessage
		if err := json.Unmarshal([]byte(doc), &want); err != nil {
			t.Fatal(err)
		}
		got := map[string]json.RawMessage{}
		for name, v := range jsonMembers([]byte(doc)) {
			got[name] = v
			if !json.Valid(v) {
				t.Errorf("%s: member %s: %q is not a value", doc, name, v)
			}
		}
		if diff := cmp.Diff(slices.Sorted(maps.Keys(want)), slices.Sorted(maps.Keys(got))); diff != "" {
			t.Errorf("%s: names (-want +got):\n%s", doc, diff)
		}
		for name, v := range want {
			if string(got[name]) != string(v) {
				t.Errorf("%s: member %s = %q, want %q", doc, name, got[name], v)
			}
		}
	}
	arr := ` [ 1 ,"a,]" , [2,[3]] ,{"x":"]"},null ] `
	var want []json.RawMessage
	if err := json.Unmarshal([]byte(arr), &want); err != nil {
		t.Fatal(err)
	}
	var got []string
	for v := range jsonElements([]byte(arr)) {
		got = append(got, string(v))
	}
	if diff := cmp.Diff([]string{`1`, `"a,]"`, `[2,[3]]`, `{"x":"]"}`, `null`}, got); diff != "" {
		t.Errorf("elements (-want +got):\n%s", diff)
	}
}

// TestBatchItemsForms: a create body with whitespace and escapes yields the
// custom_ids and params encoding/json reads.
func TestBatchItemsForms(t *testing.T) {
	body := " {\n \"re\\u0071uests\" : [ { \"params\" : {\"a\" : \"}\"} ,\"custom_id\":\"x\\u002dy\" } ,\n{\"custom_id\":\"z\",\"params\":{}}] } "
	var got []string
	for _, it := range batchItems([]byte(body)) {
		got = append(got, it.customID, string(it.params))
	}
	if diff := cmp.Diff([]string{"x-y", `{"a" : "}"}`, "z", `{}`}, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
}
