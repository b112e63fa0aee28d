package mms_test

import (
	"context"
	"errors"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"

	"github.com/stretchr/testify/require"
)

// TestAgainstFakeService checks the client and mmstest agree on the wire
// rules: each case is a real round trip through the whole pipeline.
func TestAgainstFakeService(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	tests := []struct {
		name     string
		opts     []option.RequestOption
		path     string
		wantType string // "" = success
	}{
		{"key accepted", nil, "/v1/models", ""},
		{"bearer token accepted", []option.RequestOption{option.WithAuthToken(mmstest.DefaultAuthToken)}, "/v1/models", ""},
		{"wrong key", []option.RequestOption{option.WithAPIKey("wrong")}, "/v1/models", "authentication_error"},
		{"unknown beta", []option.RequestOption{option.WithBeta("no-such-beta-2020-01-01")}, "/v1/models", "invalid_request_error"},
		{"wrong version", []option.RequestOption{option.WithVersion("1999-01-01")}, "/v1/models", "invalid_request_error"},
		{"user profile beta known to the fake", []option.RequestOption{option.WithUserProfileID("prof_1")}, "/v1/models", ""},
		{"unknown model", nil, "/v1/models/nope", "not_found_error"},
	}
	c, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.Do(context.Background(), "GET", tt.path, nil, nil, tt.opts...)
			if tt.wantType == "" {
				require.NoError(t, err)
				return
			}
			var apiErr *mms.Error
			if !errors.As(err, &apiErr) || apiErr.Type != tt.wantType || apiErr.RequestID == "" {
				t.Fatalf("err = %v, want %s with a request id", err, tt.wantType)
			}
		})
	}
}

func TestFakeRateLimitRetried(t *testing.T) {
	// One request per minute, burst 1: the second request gets a 429 with
	// retry-after ≥ 1 s, which the client honours once and then gives up.
	srv := mmstest.NewServer(mmstest.WithServerRateLimit(1, 1))
	defer srv.Close()
	c, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL), option.WithMaxRetries(0))
	require.NoError(t, err)
	var md mms.ResponseMetadata
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithResponseMetadata(&md)); err != nil {
		t.Fatal(err)
	}
	if rl, ok := md.RateLimits["requests"]; !ok || rl.Limit != 1 || rl.Reset.IsZero() {
		t.Errorf("rate-limit headers not parsed: %+v", md.RateLimits)
	}
	err = c.Do(context.Background(), "GET", "/v1/models", nil, nil)
	var apiErr *mms.Error
	if !errors.As(err, &apiErr) || !errors.Is(err, mms.ErrRateLimited) || apiErr.Metadata().RetryAfter <= 0 {
		t.Fatalf("err = %v, want a 429 with retry-after", err)
	}
}

func TestFakeFaultRetriedThenSucceeds(t *testing.T) {
	srv := mmstest.NewServer()
	defer srv.Close()
	srv.InjectFault(mmstest.Fault{Path: "/v1/models", Statuses: []int{500, 529}, RetryAfterMs: "1"})
	c, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	require.NoError(t, err)
	var md mms.ResponseMetadata
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithResponseMetadata(&md)); err != nil {
		t.Fatal(err)
	}
	if md.Attempts != 3 || md.OrganizationID == "" {
		t.Errorf("metadata = %+v", md)
	}
	srv.InjectFault(mmstest.Fault{Path: "/v1/models", DropAfterBytes: 10, Times: 1})
	if err := c.Do(context.Background(), "GET", "/v1/models", nil, nil, option.WithResponseMetadata(&md)); err != nil || md.Attempts != 2 {
		t.Fatalf("dropped connection not retried: %v (attempts %d)", err, md.Attempts)
	}
}
