package mms_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

// checkRule runs one validation case: field "" means valid, else the
// *ValidationError must name field.
func checkRule(t *testing.T, name string, err error, field string) {
	t.Helper()
	var ve *mms.ValidationError
	switch {
	case field == "" && err != nil:
		t.Errorf("%s: unexpected error %v", name, err)
	case field != "" && (!errors.As(err, &ve) || ve.Field != field):
		t.Errorf("%s: error %v, want one naming %q", name, err, field)
	}
}

func validDeployment() mms.DeploymentCreateParams {
	return mms.DeploymentCreateParams{Name: "n", Agent: mms.SessionAgentID("agent_1"), EnvironmentID: "env_1",
		InitialEvents: []mms.DeploymentInitialEvent{mms.NewUserMessageEvent("hi")}}
}

// TestDeploymentCreateParamsValidate: every rule of §1.3, on both sides
// of each limit.
func TestDeploymentCreateParamsValidate(t *testing.T) {
	user := mms.NewUserMessageEvent("hi")
	repo := mms.GitHubRepositoryResourceParams{URL: "https://github.com/o/r"}
	for name, c := range map[string]struct {
		edit  func(p *mms.DeploymentCreateParams)
		field string
	}{
		"valid":              {func(p *mms.DeploymentCreateParams) {}, ""},
		"no name":            {func(p *mms.DeploymentCreateParams) { p.Name = "" }, "name"},
		"no agent":           {func(p *mms.DeploymentCreateParams) { p.Agent = nil }, "agent"},
		"empty agent id":     {func(p *mms.DeploymentCreateParams) { p.Agent = mms.SessionAgentID("") }, "agent"},
		"agent id 128":       {func(p *mms.DeploymentCreateParams) { p.Agent = mms.SessionAgentID(strings.Repeat("a", 128)) }, ""},
		"agent id 129":       {func(p *mms.DeploymentCreateParams) { p.Agent = mms.SessionAgentID(strings.Repeat("a", 129)) }, "agent"},
		"agent version 1":    {func(p *mms.DeploymentCreateParams) { p.Agent = mms.SessionAgentRef{ID: "a", Version: mms.Ptr(1)} }, ""},
		"agent version 0":    {func(p *mms.DeploymentCreateParams) { p.Agent = mms.SessionAgentRef{ID: "a", Version: mms.Ptr(0)} }, "agent.version"},
		"no environment":     {func(p *mms.DeploymentCreateParams) { p.EnvironmentID = "" }, "environment_id"},
		"no initial events":  {func(p *mms.DeploymentCreateParams) { p.InitialEvents = nil }, "initial_events"},
		"50 initial events":  {func(p *mms.DeploymentCreateParams) { p.InitialEvents = repeatEvent(user, 50) }, ""},
		"51 initial events":  {func(p *mms.DeploymentCreateParams) { p.InitialEvents = repeatEvent(user, 51) }, "initial_events"},
		"nil event":          {func(p *mms.DeploymentCreateParams) { p.InitialEvents = []mms.DeploymentInitialEvent{nil} }, "initial_events[0]"},
		"event without text": {func(p *mms.DeploymentCreateParams) { p.InitialEvents[0] = mms.UserMessageEventParams{} }, "initial_events[0].content"},
		"system after user": {func(p *mms.DeploymentCreateParams) {
			p.InitialEvents = append(p.InitialEvents, mms.NewSystemMessageEvent("s"))
		}, ""},
		"system not last": {func(p *mms.DeploymentCreateParams) {
			p.InitialEvents = []mms.DeploymentInitialEvent{user, mms.NewSystemMessageEvent("s"), user}
		}, "initial_events[1]"},
		"system first": {func(p *mms.DeploymentCreateParams) {
			p.InitialEvents = []mms.DeploymentInitialEvent{mms.NewSystemMessageEvent("s")}
		}, "initial_events[0]"},
		"system after outcome": {func(p *mms.DeploymentCreateParams) {
			p.InitialEvents = []mms.DeploymentInitialEvent{mms.NewDefineOutcomeEvent("d", mms.TextRubric{Content: "r"}), mms.NewSystemMessageEvent("s")}
		}, "initial_events[1]"},
		"outcome 20 iterations": {func(p *mms.DeploymentCreateParams) {
			p.InitialEvents[0] = mms.UserDefineOutcomeEventParams{Rubric: mms.TextRubric{Content: "r"}, MaxIterations: 20}
		}, ""},
		"outcome 21 iterations": {func(p *mms.DeploymentCreateParams) {
			p.InitialEvents[0] = mms.UserDefineOutcomeEventParams{Rubric: mms.TextRubric{Content: "r"}, MaxIterations: 21}
		}, "initial_events[0].max_iterations"},
		"public repository": {func(p *mms.DeploymentCreateParams) { p.Resources = []mms.SessionResourceParams{repo} }, ""},
		"500 resources": {func(p *mms.DeploymentCreateParams) {
			p.Resources = slices.Repeat([]mms.SessionResourceParams{repo}, 500)
		}, ""},
		"501 resources": {func(p *mms.DeploymentCreateParams) {
			p.Resources = slices.Repeat([]mms.SessionResourceParams{repo}, 501)
		}, "resources"},
		"nil resource": {func(p *mms.DeploymentCreateParams) { p.Resources = []mms.SessionResourceParams{nil} }, "resources[0]"},
		"repository no url": {func(p *mms.DeploymentCreateParams) {
			p.Resources = []mms.SessionResourceParams{mms.GitHubRepositoryResourceParams{}}
		}, "resources[0].url"},
		"token 4096": {func(p *mms.DeploymentCreateParams) {
			p.Resources = []mms.SessionResourceParams{mms.GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: mms.NewSecret(strings.Repeat("t", 4096))}}
		}, ""},
		"token 4097": {func(p *mms.DeploymentCreateParams) {
			p.Resources = []mms.SessionResourceParams{mms.GitHubRepositoryResourceParams{URL: "u", AuthorizationToken: mms.NewSecret(strings.Repeat("t", 4097))}}
		}, "resources[0].authorization_token"},
		"instructions 4097": {func(p *mms.DeploymentCreateParams) {
			p.Resources = []mms.SessionResourceParams{mms.MemoryStoreResourceParams{MemoryStoreID: "m", Instructions: strings.Repeat("i", 4097)}}
		}, "resources[0].instructions"},
		"50 vaults":         {func(p *mms.DeploymentCreateParams) { p.VaultIDs = slices.Repeat([]string{"v"}, 50) }, ""},
		"51 vaults":         {func(p *mms.DeploymentCreateParams) { p.VaultIDs = slices.Repeat([]string{"v"}, 51) }, "vault_ids"},
		"empty vault":       {func(p *mms.DeploymentCreateParams) { p.VaultIDs = []string{""} }, "vault_ids[0]"},
		"16 metadata pairs": {func(p *mms.DeploymentCreateParams) { p.Metadata = metadataPairs(16) }, ""},
		"17 metadata pairs": {func(p *mms.DeploymentCreateParams) { p.Metadata = metadataPairs(17) }, "metadata"},
		"cron":              {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("*/15 9-17 * JAN-DEC mon-fri") }, ""},
		"cron sunday 7":     {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("0 0 * * 7") }, ""},
		"cron day 8":        {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("0 0 * * 8") }, "schedule.expression"},
		"cron minute 59":    {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("59 0 * * *") }, ""},
		"cron minute 60":    {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("60 0 * * *") }, "schedule.expression"},
		"cron 6 fields":     {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("0 0 0 * * *") }, "schedule.expression"},
		"cron 4 fields":     {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("0 0 * *") }, "schedule.expression"},
		"cron shortcut":     {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("@daily") }, "schedule.expression"},
		"cron L":            {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("0 0 L * *") }, "schedule.expression"},
		"cron ?":            {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("0 0 ? * *") }, "schedule.expression"},
		"cron empty":        {func(p *mms.DeploymentCreateParams) { p.Schedule = cron("") }, "schedule.expression"},
		"no timezone": {func(p *mms.DeploymentCreateParams) {
			p.Schedule = &mms.DeploymentScheduleParams{Expression: "0 0 * * *"}
		}, "schedule.timezone"},
		"budget cents":   {func(p *mms.DeploymentCreateParams) { p.Budget = mms.Ptr(mms.DeploymentBudgetCents(2500)) }, ""},
		"budget decimal": {func(p *mms.DeploymentCreateParams) { p.Budget = mms.Ptr(mms.BudgetUSD("25.00")) }, "budget.max_list_cost.amount"},
		"budget empty":   {func(p *mms.DeploymentCreateParams) { p.Budget = mms.Ptr(mms.BudgetUSD("")) }, "budget.max_list_cost.amount"},
		"budget not USD": {func(p *mms.DeploymentCreateParams) {
			p.Budget = &mms.SessionBudget{MaxListCost: mms.SessionCost{Amount: "1", Currency: "EUR"}}
		}, "budget.max_list_cost.currency"},
	} {
		p := validDeployment()
		c.edit(&p)
		checkRule(t, name, p.Validate(), c.field)
	}
}

func repeatEvent(e mms.DeploymentInitialEvent, n int) []mms.DeploymentInitialEvent {
	return slices.Repeat([]mms.DeploymentInitialEvent{e}, n)
}

func metadataPairs(n int) map[string]string {
	m := map[string]string{}
	for i := range n {
		m[strings.Repeat("k", i+1)] = "v"
	}
	return m
}

func cron(expr string) *mms.DeploymentScheduleParams {
	return &mms.DeploymentScheduleParams{Expression: expr, Timezone: "UTC"}
}

// TestDeploymentUpdateParamsValidate: the update's rules (§1.4).
func TestDeploymentUpdateParamsValidate(t *testing.T) {
	repo := mms.GitHubRepositoryResourceParams{URL: "u"}
	for name, c := range map[string]struct {
		p     mms.DeploymentUpdateParams
		field string
	}{
		"empty":                 {mms.DeploymentUpdateParams{}, ""},
		"clears":                {mms.DeploymentUpdateParams{Description: mms.Clear[string](), Resources: mms.Set([]mms.SessionResourceParams{}), VaultIDs: mms.Clear[[]string](), Schedule: mms.Clear[mms.DeploymentScheduleParams](), Budget: mms.Clear[mms.SessionBudget]()}, ""},
		"bad agent":             {mms.DeploymentUpdateParams{Agent: mms.SessionAgentRef{ID: ""}}, "agent.id"},
		"no initial events":     {mms.DeploymentUpdateParams{InitialEvents: []mms.DeploymentInitialEvent{}}, "initial_events"},
		"51 initial events":     {mms.DeploymentUpdateParams{InitialEvents: repeatEvent(mms.NewUserMessageEvent("x"), 51)}, "initial_events"},
		"500 resources":         {mms.DeploymentUpdateParams{Resources: mms.Set(slices.Repeat([]mms.SessionResourceParams{repo}, 500))}, ""},
		"501 resources":         {mms.DeploymentUpdateParams{Resources: mms.Set(slices.Repeat([]mms.SessionResourceParams{repo}, 501))}, "resources"},
		"51 vaults":             {mms.DeploymentUpdateParams{VaultIDs: mms.Set(slices.Repeat([]string{"v"}, 51))}, "vault_ids"},
		"bad schedule":          {mms.DeploymentUpdateParams{Schedule: mms.Set(*cron("0 0 31 13 *"))}, "schedule.expression"},
		"bad budget":            {mms.DeploymentUpdateParams{Budget: mms.Set(mms.BudgetUSD("1.5"))}, "budget.max_list_cost.amount"},
		"metadata key 64":       {mms.DeploymentUpdateParams{Metadata: mms.MetadataPatch{}.Set(strings.Repeat("k", 64), "v")}, ""},
		"metadata key 65":       {mms.DeploymentUpdateParams{Metadata: mms.MetadataPatch{}.Set(strings.Repeat("k", 65), "v")}, "metadata"},
		"metadata 17 deletions": {mms.DeploymentUpdateParams{Metadata: deletions(17)}, "metadata"},
	} {
		checkRule(t, name, c.p.Validate(), c.field)
	}
}

func deletions(n int) mms.MetadataPatch {
	m := mms.MetadataPatch{}
	for i := range n {
		m.Delete(strings.Repeat("k", i+1))
	}
	return m
}

// TestDeploymentListParamsValidate: list limits and the status rule.
func TestDeploymentListParamsValidate(t *testing.T) {
	for name, c := range map[string]struct {
		err   error
		field string
	}{
		"limit 100":               {mms.DeploymentListParams{Limit: 100}.Validate(), ""},
		"limit 101":               {mms.DeploymentListParams{Limit: 101}.Validate(), "limit"},
		"status":                  {mms.DeploymentListParams{Status: mms.DeploymentPaused}.Validate(), ""},
		"status with archived":    {mms.DeploymentListParams{Status: mms.DeploymentPaused, IncludeArchived: true}.Validate(), "status"},
		"runs limit 1000":         {mms.DeploymentRunListParams{Limit: 1000}.Validate(), ""},
		"runs limit 1001":         {mms.DeploymentRunListParams{Limit: 1001}.Validate(), "limit"},
		"runs limit -1":           {mms.DeploymentRunListParams{Limit: -1}.Validate(), "limit"},
		"schedule params":         {mms.DeploymentScheduleParams{Expression: "0 0 * * *", Timezone: "UTC"}.Validate(), ""},
		"schedule params no zone": {mms.DeploymentScheduleParams{Expression: "0 0 * * *"}.Validate(), "schedule.timezone"},
	} {
		checkRule(t, name, c.err, c.field)
	}
}

// TestDeploymentsRefuseBeforeSending: a broken request is refused with a
// *ValidationError and nothing reaches the server; a bad path id too.
func TestDeploymentsRefuseBeforeSending(t *testing.T) {
	srv := mmstest.NewServer()
	t.Cleanup(srv.Close)
	c := filesClient(t, srv)
	ctx := context.Background()
	bad := validDeployment()
	bad.Name = ""
	var ve *mms.ValidationError
	for name, err := range map[string]error{
		"create": func() error { _, err := c.Deployments.Create(ctx, bad); return err }(),
		"update": func() error {
			_, err := c.Deployments.Update(ctx, "depl_1", mms.DeploymentUpdateParams{InitialEvents: []mms.DeploymentInitialEvent{}})
			return err
		}(),
		"get empty id":   func() error { _, err := c.Deployments.Get(ctx, ""); return err }(),
		"run empty id":   func() error { _, err := c.Deployments.Run(ctx, ""); return err }(),
		"runs get empty": func() error { _, err := c.Deployments.Runs.Get(ctx, ""); return err }(),
		"list": func() error {
			for _, err := range c.Deployments.List(ctx, mms.DeploymentListParams{Limit: 101}) {
				return err
			}
			return nil
		}(),
		"runs list page": func() error {
			_, err := c.Deployments.Runs.ListPage(ctx, mms.DeploymentRunListParams{Limit: 1001})
			return err
		}(),
	} {
		if !errors.As(err, &ve) {
			t.Errorf("%s: %v, want a *ValidationError", name, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests reached the server", n)
	}
}
