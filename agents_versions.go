package mms

import (
	"context"
	"iter"

	"github.com/mms-sdk/mms-go/option"
)

// AgentVersionsService lists the versions of an agent
// (/v1/agents/{agent_id}/versions). Reach it as client.Agents.Versions.
type AgentVersionsService struct {
	client *Client
}

// AgentVersionListParams are the parameters of
// [AgentVersionsService.List] and [AgentVersionsService.ListPage].
type AgentVersionListParams struct {
	// Limit is the page size, 1–100; 0 leaves it to the service (20).
	Limit int
	// Page starts the list at a page returned before as NextPage.
	Page Cursor
}

// Validate reports the first rule the params break: Limit outside 1–100
// when set.
func (p AgentVersionListParams) Validate() error { return validateLimit(p.Limit, 100) }

func (p AgentVersionListParams) listArgs() listArgs {
	return listArgs{query: limitQuery(p.Limit), start: listPos{page: p.Page}}
}

// List iterates over an agent's versions, one [Agent] record each (GET
// /v1/agents/{agent_id}/versions, cursor scheme), fetching pages as it
// goes. Nothing is sent before the loop starts; an error is yielded once,
// last.
func (s *AgentVersionsService) List(ctx context.Context, agentID string, p AgentVersionListParams, opts ...option.RequestOption) iter.Seq2[Agent, error] {
	return s.all(agentID).list(ctx, p, opts)
}

// ListPage fetches one page of an agent's versions (GET
// /v1/agents/{agent_id}/versions).
func (s *AgentVersionsService) ListPage(ctx context.Context, agentID string, p AgentVersionListParams, opts ...option.RequestOption) (*Page[Agent], error) {
	return s.all(agentID).listPage(ctx, p, opts)
}

// all is an agent's versions' endpoint (/v1/agents/{agent_id}/versions).
func (s *AgentVersionsService) all(agentID string) endpoint[Agent] {
	return managedEndpoint[Agent](s.client, "/v1/agents").id("agent_id", agentID).sub("/versions")
}
