package admin_test

import (
	"context"
	"fmt"
	"time"

	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/mmstest"
)

// The sync recipe: list the cases updated since the largest UpdatedAt
// seen, oldest first, matching them by ID; read an open case's items and
// respond.
func ExampleComplianceReviewService_ListCases() {
	s := mmstest.NewServer()
	defer s.Close()
	s.Org().AddReviewCase([]string{"fraud"}, mmstest.ReviewItem{})
	c, err := admin.NewClient(s.AdminClientOptions()...)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	var since time.Time // stored between runs
	seen := map[string]admin.ComplianceCase{}
	for cs, err := range c.ComplianceReview.ListCases(ctx, admin.ComplianceCaseListParams{
		UpdatedAt: admin.TimeBounds{GTE: since}, OrderBy: admin.CaseOrderByUpdatedAt, Order: admin.OrderAsc}) {
		if err != nil {
			panic(err)
		}
		seen[cs.ID] = cs
		if cs.UpdatedAt.After(since) {
			since = cs.UpdatedAt // store it after the last page
		}
	}
	for id, cs := range seen {
		if _, open := cs.Status.(admin.CaseOpen); !open {
			continue
		}
		for _, tr := range cs.Transcripts {
			p := admin.ComplianceItemGetParams{}
			if tr.UserProfileID != nil {
				p.UserProfileID = *tr.UserProfileID
			}
			item, err := c.ComplianceReview.GetItem(ctx, tr.ItemID, p)
			if err != nil {
				panic(err)
			}
			fmt.Println("item readable until set:", !item.ContentExpiresAt.IsZero())
		}
		closed, err := c.ComplianceReview.RespondToCase(ctx, id, admin.ComplianceRespondParams{Determination: admin.DeterminationNoViolation})
		if err != nil {
			panic(err)
		}
		fmt.Println(cs.PolicyCategories, "→", closed.Status.(admin.CaseClosed).Reason.Type)
	}
	// Output:
	// item readable until set: true
	// [fraud] → responded
}
