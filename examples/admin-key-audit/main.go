// Command admin-key-audit lists the organization's active API keys older
// than N days and, after confirmation, deactivates them.
//
// Without -confirm it only reports (a dry run); with -confirm it sets each
// listed key's status to inactive (an update: sending it again is
// harmless). It reads $VENDOR_ADMIN_KEY and $VENDOR_BASE_URL as
// admin.NewClient does; with none set it runs against mmstest, the SDK's
// built-in fake, seeded with a few keys, and says so on stderr:
//
//	go run ./examples/admin-key-audit -days 90            # report
//	go run ./examples/admin-key-audit -days 90 -confirm   # deactivate
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"text/tabwriter"
	"time"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
)

func main() {
	days := flag.Int("days", 90, "report active keys created more than this many days ago")
	confirm := flag.Bool("confirm", false, "deactivate the keys reported (without it: a dry run)")
	flag.Parse()
	now := time.Now()
	// In your program: client, err := admin.NewClient().
	client, fake, err := exampleclient.NewAdmin(func(o *mmstest.Org) { seed(o, now) })
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, now, *days, *confirm, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run reports the active keys older than days at now and, when confirm,
// deactivates them.
func run(ctx context.Context, client *admin.Client, now time.Time, days int, confirm bool, out io.Writer) error {
	cutoff := now.AddDate(0, 0, -days)
	var old []admin.APIKey
	for k, err := range client.APIKeys.List(ctx, admin.APIKeyListParams{Status: admin.APIKeyStatusActive, Limit: 100}) {
		if err != nil {
			return err
		}
		if k.CreatedAt.Before(cutoff) {
			old = append(old, k)
		}
	}
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tHINT\tCREATED\tAGE (DAYS)\tSCOPE")
	for _, k := range old {
		scope := "organization"
		if ws, ok := k.Scope.(admin.WorkspaceKeyScope); ok {
			scope = ws.WorkspaceID
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\n", k.ID, k.Name, k.PartialKeyHint, k.CreatedAt.Format("2006-01-02"), int(now.Sub(k.CreatedAt).Hours()/24), scope)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(out, "%d active keys older than %d days\n", len(old), days)
	if !confirm {
		if len(old) > 0 {
			fmt.Fprintln(out, "dry run: pass -confirm to deactivate them")
		}
		return nil
	}
	for _, k := range old {
		if _, err := client.APIKeys.Update(ctx, k.ID, admin.APIKeyUpdateParams{Status: admin.APIKeyStatusInactive}); err != nil {
			return fmt.Errorf("deactivating %s: %w", k.ID, err)
		}
		fmt.Fprintf(out, "deactivated %s (%s)\n", k.ID, k.Name)
	}
	return nil
}

// seed gives the fake keys of several ages, one already inactive.
func seed(o *mmstest.Org, now time.Time) {
	u := o.AddUser("ops@example.com", "Ops", "admin")
	ws := o.AddWorkspace("production")
	for _, k := range []struct {
		name   string
		age    int
		status string
	}{{"ci-2024", 400, ""}, {"batch-export", 120, ""}, {"old-but-off", 300, "inactive"}, {"notebook", 10, ""}} {
		o.AddAPIKey(mmstest.APIKeySeed{Name: k.name, WorkspaceID: ws, CreatedByUserID: u, Status: k.status, CreatedAt: now.AddDate(0, 0, -k.age)})
	}
}
