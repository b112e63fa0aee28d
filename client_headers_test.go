package mms_test

import (
	"context"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

func TestCustomHeadersFromEnvironment(t *testing.T) {
	tests := []struct {
		name    string
		env     string
		opts    []option.RequestOption
		want    map[string]string // header → value on the request
		wantErr string            // "" for none
	}{
		{"one", "X-Team: search", nil, map[string]string{"X-Team": "search"}, ""},
		{"several, CRLF, blank lines", "X-Team: search\r\n\r\nX-Trace:  abc  \r\n", nil, map[string]string{"X-Team": "search", "X-Trace": "abc"}, ""},
		{"a value holding a colon", "X-Url: http://a:1", nil, map[string]string{"X-Url": "http://a:1"}, ""},
		{"an option wins", "X-Team: search", []option.RequestOption{option.WithHeader("X-Team", "ads")}, map[string]string{"X-Team": "ads"}, ""},
		{"betas are merged", "vendor-beta: files-api-2025-04-14", nil, map[string]string{"Vendor-Beta": "files-api-2025-04-14"}, ""},
		{"no colon", "X-Team: a\nsecret-token-value", nil, nil, "line 2"},
		{"no name", ": value", nil, nil, "line 1"},
		{"a credential", "x-api-key: sk-secret-value", nil, nil, "credential"},
		{"a bad name", "X Team: a", nil, nil, "line 1"},
		{"a bad beta value", "X-Team: a\nVendor-Beta: sk-secret value", nil, nil, "line 2"},
		{"a beta value with a control character", "Vendor-Beta: b1,sk-secret\x01", nil, nil, "line 1"},
		{"a secret before the colon", "Authorization Bearer sk-secret: x", nil, nil, "line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := mmstest.NewServer()
			defer srv.Close()
			t.Setenv(mms.EnvCustomHeaders, tt.env)
			client, err := mms.NewClient(append(srv.ClientOptions(), tt.opts...)...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), mms.EnvCustomHeaders) {
					t.Fatalf("error %v, want one naming %s and %q", err, mms.EnvCustomHeaders, tt.wantErr)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Errorf("the error quotes the line: %v", err)
				}
				return
			}
			require.NoError(t, err)
			if _, err := client.Models.Get(context.Background(), "mms-large-1"); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			got := reqs[len(reqs)-1].Header
			for k, v := range tt.want {
				if got.Get(k) != v {
					t.Errorf("%s: %q, want %q", k, got.Get(k), v)
				}
			}
		})
	}
}
