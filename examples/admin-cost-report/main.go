// Command admin-cost-report writes an organization's cost for one month,
// by workspace and model, as CSV: one row per (workspace, model) with the
// exact amounts the service reports, and the month's total on stderr.
//
// It reads its admin credential and address from the environment, as
// admin.NewClient does ($VENDOR_ADMIN_KEY and $VENDOR_BASE_URL); with
// none set it runs against mmstest, the SDK's built-in fake, seeded with a
// month of usage, and says so on stderr:
//
//	go run ./examples/admin-cost-report -month 2026-03 > march.csv
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
)

func main() {
	lastMonth := time.Now().UTC().AddDate(0, -1, 0).Format("2006-01")
	month := flag.String("month", lastMonth, "the month to report, YYYY-MM")
	flag.Parse()
	start, err := time.Parse("2006-01", *month)
	if err != nil {
		log.Fatalf("-month: %v", err)
	}
	// In your program: client, err := admin.NewClient().
	client, fake, err := exampleclient.NewAdmin(func(o *mmstest.Org) { seed(o, start) })
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, start, os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// groupBy is the report's dimensions: one row per workspace and model.
var groupBy = []string{admin.DimWorkspaceID, admin.DimModel}

// run writes the month starting at start as CSV to out, and the total to
// summary. The report pages on its own; one page is in memory at a time.
func run(ctx context.Context, client *admin.Client, start time.Time, out, summary io.Writer) error {
	p := admin.ReportParams{StartingAt: start, EndingAt: start.AddDate(0, 1, 0), GroupBy: groupBy}
	w := csv.NewWriter(out)
	if err := w.Write(admin.CostColumns(groupBy)); err != nil {
		return err
	}
	total, currency, rows := admin.Decimal("0"), "", 0
	for row, err := range client.Reports.Cost(ctx, p) {
		if err != nil {
			return err
		}
		if err := w.Write(row.Values(groupBy)); err != nil {
			return err
		}
		// Amounts are exact decimals: the total is to the last digit.
		if total, err = total.Add(row.Cost.Amount); err != nil {
			return err
		}
		currency = row.Cost.Currency
		rows++
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	fmt.Fprintf(summary, "%s: %d rows, total %s %s\n", start.Format("2006-01"), rows, total, currency)
	return nil
}

// seed gives the fake a month of usage in two workspaces and two models.
func seed(o *mmstest.Org, start time.Time) {
	research, prod := o.AddWorkspace("research"), o.AddWorkspace("production")
	for day := range 28 {
		at := start.AddDate(0, 0, day).Add(9 * time.Hour)
		o.AddUsage(
			mmstest.UsageRecord{Time: at, Group: map[string]string{"workspace_id": prod, "model": "mms-large-1"}, Requests: 120, Amount: "14.125", ListAmount: "15.00"},
			mmstest.UsageRecord{Time: at, Group: map[string]string{"workspace_id": prod, "model": "mms-small-1"}, Requests: 900, Amount: "2.333", ListAmount: "2.50"},
			mmstest.UsageRecord{Time: at, Group: map[string]string{"workspace_id": research, "model": "mms-large-1"}, Requests: 40, Amount: "4.7", ListAmount: "5"},
		)
	}
}
