// Command admin-provision provisions a workspace: it creates it (with its
// data residency), adds members by email with their workspace roles, and
// sets the workspace's rate limits on the organization's model group.
//
// It reads $VENDOR_ADMIN_KEY and $VENDOR_BASE_URL as admin.NewClient does;
// with none set it runs against mmstest, the SDK's built-in fake, seeded
// with a few members, and says so on stderr:
//
//	go run ./examples/admin-provision -name ml-research -rpm 500 \
//	    -member ada@example.com=workspace_developer -member lin@example.com=workspace_admin
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/admin"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
)

// members is the repeatable -member email=role flag.
type members map[string]admin.WorkspaceRole

func (m members) String() string { return fmt.Sprint(map[string]admin.WorkspaceRole(m)) }

func (m members) Set(v string) error {
	email, role, ok := strings.Cut(v, "=")
	if !ok {
		return errors.New("want email=workspace_role")
	}
	m[email] = admin.WorkspaceRole(role)
	return nil
}

// plan is what to provision.
type plan struct {
	name    string
	members members
	rpm     int64 // requests per minute on the model group; 0 leaves it
	otpm    int64 // output tokens per minute; 0 leaves it
}

func main() {
	p := plan{members: members{}}
	flag.StringVar(&p.name, "name", "ml-research", "the workspace's name")
	flag.Var(p.members, "member", "email=workspace_role to add (repeatable)")
	flag.Int64Var(&p.rpm, "rpm", 500, "requests per minute for the workspace on the model group (0: unchanged)")
	flag.Int64Var(&p.otpm, "otpm", 80000, "output tokens per minute for the workspace (0: unchanged)")
	flag.Parse()
	if len(p.members) == 0 {
		p.members["ada@example.com"] = admin.WorkspaceRoleDeveloper
		p.members["lin@example.com"] = admin.WorkspaceRoleAdmin
	}
	// In your program: client, err := admin.NewClient().
	client, fake, err := exampleclient.NewAdmin(seed)
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, p, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run provisions p and reports each step.
func run(ctx context.Context, client *admin.Client, p plan, out io.Writer) error {
	// Resolve every member first: a typo stops the run before anything is
	// created.
	ids := map[string]string{}
	for email := range p.members {
		for u, err := range client.Users.List(ctx, admin.UserListParams{Email: email}) {
			if err != nil {
				return err
			}
			ids[email] = u.ID
		}
		if ids[email] == "" {
			return fmt.Errorf("%s is not a member of the organization (invite them first)", email)
		}
	}
	ws, err := client.Workspaces.Create(ctx, admin.WorkspaceCreateParams{
		Name: p.name, Tags: map[string]string{"provisioned-by": "admin-provision"},
		DataResidency: &admin.DataResidency{AllowedInferenceGeos: &admin.InferenceGeos{Geos: []string{"us"}}, DefaultInferenceGeo: "us"},
	})
	if errors.Is(err, mms.ErrMaybeApplied) {
		return fmt.Errorf("the create may have taken effect: list the workspaces before running again: %w", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "created workspace %s (%s), inference in %v\n", ws.Name, ws.ID, ws.DataResidency.AllowedInferenceGeos.Geos)
	for email, role := range p.members {
		m, err := client.Workspaces.Members.Add(ctx, ws.ID, admin.WorkspaceMemberAddParams{UserID: ids[email], WorkspaceRole: role})
		if err != nil {
			return fmt.Errorf("adding %s: %w", email, err)
		}
		fmt.Fprintf(out, "added %s as %s\n", email, m.WorkspaceRole)
	}
	var overrides []admin.LimitOverride
	for _, l := range []struct {
		typ string
		v   int64
	}{{admin.LimitRequestsPerMinute, p.rpm}, {admin.LimitOutputTokensPerMinute, p.otpm}} {
		if l.v > 0 {
			overrides = append(overrides, admin.LimitOverride{Type: l.typ, Value: &l.v})
		}
	}
	if len(overrides) == 0 {
		return nil
	}
	for rl, err := range client.RateLimits.List(ctx, admin.RateLimitListParams{GroupType: admin.GroupModel}) {
		if err != nil {
			return err
		}
		got, err := client.Workspaces.RateLimits.Update(ctx, ws.ID, rl.ID, admin.WorkspaceRateLimitUpdateParams{Limits: overrides})
		if err != nil {
			return err
		}
		name := rl.ID
		if g, ok := rl.Group.(admin.ModelGroup); ok {
			name = g.DisplayName
		}
		for _, l := range got.Limits {
			if l.Source.Type == "workspace" {
				fmt.Fprintf(out, "limit %s on %s: %d (organization: %s)\n", l.Type, name, l.Value, orgLimit(l.OrgLimit))
			}
		}
	}
	return nil
}

func orgLimit(v *int64) string {
	if v == nil {
		return "none"
	}
	return fmt.Sprint(*v)
}

// seed gives the fake the members the default plan adds.
func seed(o *mmstest.Org) {
	o.AddUser("ada@example.com", "Ada", "developer")
	o.AddUser("lin@example.com", "Lin", "user")
}
