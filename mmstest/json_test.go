package mmstest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDecodeStrictJSON(t *testing.T) {
	type body struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	}
	tests := []struct {
		in, wantErr string // wantErr "" means success
	}{
		{in: `{"name":"a","count":2}`},
		{in: `{"name":"a"}` + "\n"},
		{in: ``, wantErr: "request body is empty"},
		{in: `{"name":`, wantErr: "not valid JSON"},
		{in: `{"name":"a",}`, wantErr: "not valid JSON"},
		{in: `{"name":"a","extra":1}`, wantErr: "extra: Extra inputs are not permitted"},
		{in: `{"count":"2"}`, wantErr: "count: expected int, got JSON string"},
		{in: `{"name":"a"} {}`, wantErr: "single JSON value"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tt.in))
		var v body
		err := decodeStrictJSON(r, &v)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tt.in, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%q: error %v, want one containing %q", tt.in, err, tt.wantErr)
		}
	}
}

func TestWriteJSONDoesNotEscapeHTML(t *testing.T) {
	w := httptest.NewRecorder()
	writeJSON(w, http.StatusOK, map[string]string{"text": "<a & b>"})
	if got, want := w.Body.String(), `{"text":"<a & b>"}`+"\n"; got != want {
		t.Errorf("body %q, want %q", got, want)
	}
	if w.Header().Get("Content-Length") != "19" || w.Header().Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", w.Header())
	}
}
