// Package admin is the client of the Organization (Admin) API
// (/v1/organizations/…): API keys, workspaces and their members and
// limits, users and invites, service accounts, workload identity
// federation, external keys, rate and spend limits, compliance settings,
// RBAC groups and roles, analytics and usage and cost reports; and
// compliance review (/v1/compliance/review/…, beta), which takes an admin
// key too.
//
// It is a separate package because its credentials are not the ones a
// program calling models holds, but it sends through the same pipeline as
// package mms (retries by class and [mms.ErrMaybeApplied], secret
// scrubbing, observers, rate limits, response metadata) and takes the same
// options:
//
//	c, err := admin.NewClient(option.WithAdminKey(os.Getenv("MY_ADMIN_KEY")))
//	if err != nil {
//		return err
//	}
//	for ws, err := range c.Workspaces.List(ctx, admin.WorkspaceListParams{}) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(ws.ID, ws.Name)
//	}
//
// Credentials (organization.md §1): most operations need an admin key
// ([option.WithAdminKey] or $VENDOR_ADMIN_KEY); federation issuers and
// rules, service accounts and workspace service-account memberships accept
// only an OAuth access token with scope org:admin; analytics also accept an
// API key with scope read:analytics. A credential an operation does not
// accept is refused before anything is sent (the error matches
// [ErrCredential]), and an admin key is never sent outside
// /v1/organizations/ and /v1/compliance/review/.
//
// Errors of the service are *mms.Error; invalid params are
// *mms.ValidationError, returned before anything is sent.
package admin

//go:generate go run ../internal/gen -dir .
