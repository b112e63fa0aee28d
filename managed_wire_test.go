package mms_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// The scripted wire tests of the managed-agents services (agents,
// environments, sessions, vaults) share this runner.

// wireCase is one call of a scripted wire test.
type wireCase struct {
	name                string
	reply               reply
	do                  func(context.Context, *mms.Client) error
	method, path, query string
	body                string
	header              map[string]string // request headers that must arrive
}

// runWireCases runs each case against a scripted server: method, path,
// query, the managed-agents beta merged with a client beta, the headers
// and the body.
func runWireCases(t *testing.T, cases []wireCase) {
	t.Helper()
	runBetaWireCases(t, mms.BetaManagedAgents, cases)
}

// runBetaWireCases is runWireCases for a family whose endpoint beta is
// beta (alone: no other family's beta may be sent).
func runBetaWireCases(t *testing.T, beta string, cases []wireCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			srv := newScriptServer(t, tt.reply)
			c := newTestClient(t, srv, option.WithBeta("context-1m-2025-08-07"))
			if err := tt.do(context.Background(), c); err != nil {
				t.Fatal(err)
			}
			got := srv.requests()
			if len(got) != 1 {
				t.Fatalf("%d requests", len(got))
			}
			r := got[0]
			if r.method != tt.method || r.path != tt.path || r.query != tt.query {
				t.Errorf("sent %s %s ? %s, want %s %s ? %s", r.method, r.path, r.query, tt.method, tt.path, tt.query)
			}
			if b := r.header.Values("Vendor-Beta"); !cmp.Equal(b, []string{"context-1m-2025-08-07," + beta}) {
				t.Errorf("vendor-beta %q", b)
			}
			for k, v := range tt.header {
				if got := r.header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			if tt.body == "" {
				if len(r.body) != 0 {
					t.Errorf("body %s, want none", r.body)
				}
			} else if diff := jsonDiff(t, []byte(tt.body), r.body); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
		})
	}
}

// drain ranges over a list and returns its error, if any.
func drain[T any](seq func(func(T, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}
