package admin_test

import (
	"context"
	"iter"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// fake starts an mmstest server closed on cleanup, and an admin client
// with its admin key (extra options after).
func fake(t *testing.T, opts ...option.RequestOption) (*mmstest.Server, *admin.Client) {
	t.Helper()
	s := mmstest.NewServer()
	t.Cleanup(s.Close)
	c, err := admin.NewClient(append(s.AdminClientOptions(), opts...)...)
	require.NoError(t, err)
	return s, c
}

// oauthClient is a client of s authenticated with the org:admin token.
func oauthClient(t *testing.T, s *mmstest.Server) *admin.Client {
	t.Helper()
	c, err := admin.NewClient(option.WithBaseURL(s.URL), option.WithHTTPClient(s.Client()), option.WithAuthToken(mmstest.DefaultOrgAdminToken))
	require.NoError(t, err)
	return c
}

// collect ranges seq, failing on an error.
func collect[T any](t *testing.T, seq iter.Seq2[T, error]) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

// firstErr is the error a sequence yields (nil when none).
func firstErr[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

var ctx = context.Background()

// optionToken is option.WithAuthToken.
func optionToken(tok string) option.RequestOption { return option.WithAuthToken(tok) }
