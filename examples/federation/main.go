// Command federation shows workload identity federation: the client
// exchanges the workload's identity token (here a file, as a Kubernetes
// projected service-account token is) for short-lived access tokens and
// renews them on its own, while the identity token file is rotated under
// it, as the kubelet does.
//
// With $VENDOR_FEDERATION_RULE_ID, $VENDOR_ORGANIZATION_ID,
// $VENDOR_IDENTITY_TOKEN_FILE and $VENDOR_BASE_URL set, mms.NewClient
// configures federation from them and the example makes its requests
// against the service. Without them it runs against mmstest, whose tokens
// live only 32 seconds, so the client renews them all the time (in the
// background inside 120 s of expiry, before sending inside 30 s), with a
// token file it rewrites every second:
//
//	go run ./examples/federation
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func main() {
	ctx := context.Background()
	if os.Getenv(mms.EnvFederationRuleID) != "" {
		client, err := mms.NewClient() // federation from the VENDOR_* variables
		if err != nil {
			log.Fatal(err)
		}
		if err := run(ctx, client, 3, time.Second, os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	exampleclient.Announce("no $" + mms.EnvFederationRuleID)
	if err := demo(ctx, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run makes n requests, every apart, and reports each.
func run(ctx context.Context, client *mms.Client, n int, every time.Duration, out io.Writer) error {
	for i := 1; i <= n; i++ {
		var md mms.ResponseMetadata
		page, err := client.Models.ListPage(ctx, mms.ModelListParams{Limit: 1}, option.WithResponseMetadata(&md))
		if err != nil {
			return fmt.Errorf("request %d: %w", i, err)
		}
		fmt.Fprintf(out, "request %d: %d model(s), request-id %s\n", i, len(page.Data), md.RequestID)
		if i < n {
			time.Sleep(every)
		}
	}
	return nil
}

// demo runs the example against mmstest with a rotating token file.
func demo(ctx context.Context, out io.Writer) error {
	var mu sync.Mutex
	var seen []string // the identity tokens the fake exchanged, in order
	srv := mmstest.NewServer(mmstest.WithTokenLifetime(32*time.Second),
		mmstest.WithFederationRule(mmstest.FederationRule{ID: "fdrl_demo", OrganizationID: "org_demo",
			Accept: func(assertion string) bool {
				mu.Lock()
				defer mu.Unlock()
				seen = append(seen, assertion)
				return strings.HasPrefix(assertion, "demo-identity-")
			}}))
	defer srv.Close()

	dir, err := os.MkdirTemp("", "federation-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "token")
	write := func(v int) error { // the kubelet writes the new token, then renames it into place
		tmp := file + ".new"
		if err := os.WriteFile(tmp, fmt.Appendf(nil, "demo-identity-v%d\n", v), 0o600); err != nil {
			return err
		}
		return os.Rename(tmp, file)
	}
	if err := write(1); err != nil {
		return err
	}
	rotateCtx, stop := context.WithCancel(ctx)
	rotated := make(chan error, 1)
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for v := 2; ; v++ {
			select {
			case <-rotateCtx.Done():
				rotated <- nil
				return
			case <-t.C:
				if err := write(v); err != nil {
					rotated <- err
					return
				}
			}
		}
	}()

	client, err := mms.NewClient(option.WithBaseURL(srv.URL), option.WithFederation(option.Federation{
		RuleID: "fdrl_demo", OrganizationID: "org_demo", IdentityTokenFile: file,
	}))
	if err != nil {
		stop()
		return err
	}
	err = run(ctx, client, 6, time.Second, out)
	stop()
	if rerr := <-rotated; err == nil {
		err = rerr
	}
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	fmt.Fprintf(out, "%d token exchanges, with identity tokens %s\n", srv.TokenExchanges(), strings.Join(seen, ", "))
	return nil
}
