package mmstest

import (
	"encoding/json"
	"net/http"
	"path"
	"strings"
)

// route is one endpoint of the fake: the method and path pattern
// http.ServeMux matches (Go 1.22 patterns, with {name} path values), the
// handler, and what the rule chain must know of the endpoint before it runs.
type route struct {
	pattern string
	handle  http.HandlerFunc
	// upload marks a multipart upload: a large or chunked body is spooled to
	// a temporary file rather than buffered (uploads.go).
	upload bool
	// open marks an endpoint answered before the rule chain (no credential,
	// no vendor-version; it reads its own body): the OAuth token endpoint.
	open func(http.ResponseWriter, *http.Request, *Request)
}

// routes is the fake's whole surface, the only place an endpoint is
// declared. Handlers run after the rule chain in rules.go, so they can rely
// on an authenticated request with a valid version, betas and a body within
// the size limit, read whole before they run: buffered in memory, or, for an
// upload route, spooled to a temporary file (uploads.go). Unknown paths and
// methods get the service's 404 and 405 bodies (rules.go, route).
func (s *Server) routes() []route {
	files, batches, skills := s.files, s.batches, s.skills // files.go, batches.go, skills.go
	agents := s.agents
	envs := s.environments
	vaults := s.vaults
	sessions := s.sessions
	profiles := s.userProfiles
	tunnels := s.tunnels
	mem := s.memoryStores
	deps, dreams := s.deployments, s.dreams
	return append([]route{
		{pattern: "/v1/oauth/token", open: s.serveToken}, // oauth.go; any method: it answers a 405 itself
		{pattern: "GET /v1/models", handle: s.listModels},
		{pattern: "GET /v1/models/{model_id}", handle: s.getModel},
		// Messages check the file ids they name against the store (files.go).
		{pattern: "POST /v1/messages", handle: files.withFileRefs("create", s.createMessage)},
		{pattern: "POST /v1/messages/count_tokens", handle: files.withFileRefs("count_tokens", s.countTokens)},
		{pattern: "POST /v1/messages/batches", handle: batches.create},
		{pattern: "GET /v1/messages/batches", handle: batches.list},
		{pattern: "GET /v1/messages/batches/{message_batch_id}", handle: batches.get},
		{pattern: "POST /v1/messages/batches/{message_batch_id}/cancel", handle: batches.cancel},
		{pattern: "DELETE /v1/messages/batches/{message_batch_id}", handle: batches.delete},
		{pattern: "GET /v1/messages/batches/{message_batch_id}/results", handle: batches.results},
		{pattern: "POST /v1/files", handle: files.upload, upload: true},
		{pattern: "GET /v1/files", handle: files.list},
		{pattern: "GET /v1/files/{file_id}", handle: files.get},
		{pattern: "GET /v1/files/{file_id}/content", handle: files.download},
		{pattern: "DELETE /v1/files/{file_id}", handle: files.delete},
		{pattern: "POST /v1/skills", handle: skills.create, upload: true},
		{pattern: "GET /v1/skills", handle: skills.list},
		{pattern: "GET /v1/skills/{skill_id}", handle: skills.get},
		{pattern: "DELETE /v1/skills/{skill_id}", handle: skills.delete},
		{pattern: "POST /v1/skills/{skill_id}/versions", handle: skills.createVersion, upload: true},
		{pattern: "GET /v1/skills/{skill_id}/versions", handle: skills.listVersions},
		{pattern: "GET /v1/skills/{skill_id}/versions/{version}", handle: skills.getVersion},
		{pattern: "DELETE /v1/skills/{skill_id}/versions/{version}", handle: skills.deleteVersion},
		// agents.go
		{pattern: "POST /v1/agents", handle: agents.create},
		{pattern: "GET /v1/agents", handle: agents.list},
		{pattern: "GET /v1/agents/{agent_id}", handle: agents.get},
		{pattern: "POST /v1/agents/{agent_id}", handle: agents.update},
		{pattern: "POST /v1/agents/{agent_id}/archive", handle: agents.archive},
		{pattern: "GET /v1/agents/{agent_id}/versions", handle: agents.listVersions},
		// environments.go, environments_work.go
		{pattern: "POST /v1/environments", handle: envs.create},
		{pattern: "GET /v1/environments", handle: envs.list},
		{pattern: "GET /v1/environments/{environment_id}", handle: envs.get},
		{pattern: "POST /v1/environments/{environment_id}", handle: envs.update},
		{pattern: "DELETE /v1/environments/{environment_id}", handle: envs.delete},
		{pattern: "POST /v1/environments/{environment_id}/archive", handle: envs.archive},
		{pattern: "GET /v1/environments/{environment_id}/work/poll", handle: envs.poll},
		{pattern: "GET /v1/environments/{environment_id}/work/stats", handle: envs.stats},
		{pattern: "GET /v1/environments/{environment_id}/work", handle: envs.listWork},
		{pattern: "GET /v1/environments/{environment_id}/work/{work_id}", handle: envs.getWork},
		{pattern: "POST /v1/environments/{environment_id}/work/{work_id}", handle: envs.updateWork},
		{pattern: "POST /v1/environments/{environment_id}/work/{work_id}/ack", handle: envs.ack},
		{pattern: "POST /v1/environments/{environment_id}/work/{work_id}/heartbeat", handle: envs.heartbeat},
		{pattern: "POST /v1/environments/{environment_id}/work/{work_id}/stop", handle: envs.stop},
		// vaults.go, vaults_credentials.go
		{pattern: "POST /v1/vaults", handle: vaults.createVault},
		{pattern: "GET /v1/vaults", handle: vaults.listVaults},
		{pattern: "GET /v1/vaults/{vault_id}", handle: vaults.getVault},
		{pattern: "POST /v1/vaults/{vault_id}", handle: vaults.updateVault},
		{pattern: "DELETE /v1/vaults/{vault_id}", handle: vaults.deleteVault},
		{pattern: "POST /v1/vaults/{vault_id}/archive", handle: vaults.archiveVault},
		{pattern: "POST /v1/vaults/{vault_id}/credentials", handle: vaults.createCredential},
		{pattern: "GET /v1/vaults/{vault_id}/credentials", handle: vaults.listCredentials},
		{pattern: "GET /v1/vaults/{vault_id}/credentials/{credential_id}", handle: vaults.getCredential},
		{pattern: "POST /v1/vaults/{vault_id}/credentials/{credential_id}", handle: vaults.updateCredential},
		{pattern: "DELETE /v1/vaults/{vault_id}/credentials/{credential_id}", handle: vaults.deleteCredential},
		{pattern: "POST /v1/vaults/{vault_id}/credentials/{credential_id}/archive", handle: vaults.archiveCredential},
		{pattern: "POST /v1/vaults/{vault_id}/credentials/{credential_id}/mcp_oauth_validate", handle: vaults.validateCredential},
		// sessions*.go
		{pattern: "POST /v1/sessions", handle: sessions.create},
		{pattern: "GET /v1/sessions", handle: sessions.list},
		{pattern: "GET /v1/sessions/{session_id}", handle: sessions.get},
		{pattern: "POST /v1/sessions/{session_id}", handle: sessions.update},
		{pattern: "DELETE /v1/sessions/{session_id}", handle: sessions.delete},
		{pattern: "POST /v1/sessions/{session_id}/archive", handle: sessions.archive},
		{pattern: "POST /v1/sessions/{session_id}/resources", handle: sessions.addResource},
		{pattern: "GET /v1/sessions/{session_id}/resources", handle: sessions.listResources},
		{pattern: "GET /v1/sessions/{session_id}/resources/{resource_id}", handle: sessions.getResource},
		{pattern: "POST /v1/sessions/{session_id}/resources/{resource_id}", handle: sessions.updateResource},
		{pattern: "DELETE /v1/sessions/{session_id}/resources/{resource_id}", handle: sessions.deleteResource},
		{pattern: "GET /v1/sessions/{session_id}/threads", handle: sessions.listThreads},
		{pattern: "GET /v1/sessions/{session_id}/threads/{thread_id}", handle: sessions.getThread},
		{pattern: "POST /v1/sessions/{session_id}/threads/{thread_id}/archive", handle: sessions.archiveThread},
		// Events (sessions_events.go), their streams (sessions_stream.go) and the turns they cause (sessions_sim.go).
		{pattern: "GET /v1/sessions/{session_id}/events", handle: sessions.listEvents},
		{pattern: "POST /v1/sessions/{session_id}/events", handle: sessions.sendEvents},
		{pattern: "GET /v1/sessions/{session_id}/events/stream", handle: sessions.streamEvents},
		{pattern: "GET /v1/sessions/{session_id}/threads/{thread_id}/events", handle: sessions.listThreadEvents},
		{pattern: "GET /v1/sessions/{session_id}/threads/{thread_id}/stream", handle: sessions.streamThread},
		// user_profiles.go
		{pattern: "POST /v1/user_profiles", handle: profiles.create},
		{pattern: "GET /v1/user_profiles", handle: profiles.list},
		{pattern: "GET /v1/user_profiles/{user_profile_id}", handle: profiles.get},
		{pattern: "POST /v1/user_profiles/{user_profile_id}", handle: profiles.update},
		{pattern: "POST /v1/user_profiles/{user_profile_id}/enrollment_url", handle: profiles.enrollmentURL},
		// user_profiles_ga.go, user_profiles_google.go
		{pattern: "DELETE /v1/user_profiles/{user_profile_id}", handle: profiles.delete},
		{pattern: "POST /v1/user_profiles/{user_profile_id}/action_urls", handle: profiles.actionURL},
		{pattern: "GET /v1/user_profiles/{user_profile_id}/providers/google/data_controls", handle: profiles.getDataControls},
		{pattern: "POST /v1/user_profiles/{user_profile_id}/providers/google/data_controls", handle: profiles.updateDataControls},
		// tunnels.go
		{pattern: "POST /v1/tunnels", handle: tunnels.createTunnel},
		{pattern: "GET /v1/tunnels", handle: tunnels.listTunnels},
		{pattern: "GET /v1/tunnels/{tunnel_id}", handle: tunnels.getTunnel},
		{pattern: "POST /v1/tunnels/{tunnel_id}/archive", handle: tunnels.archiveTunnel},
		{pattern: "POST /v1/tunnels/{tunnel_id}/reveal_token", handle: tunnels.revealToken},
		{pattern: "POST /v1/tunnels/{tunnel_id}/rotate_token", handle: tunnels.rotateToken},
		{pattern: "POST /v1/tunnels/{tunnel_id}/certificates", handle: tunnels.createCertificate},
		{pattern: "GET /v1/tunnels/{tunnel_id}/certificates", handle: tunnels.listCertificates},
		{pattern: "GET /v1/tunnels/{tunnel_id}/certificates/{certificate_id}", handle: tunnels.getCertificate},
		{pattern: "POST /v1/tunnels/{tunnel_id}/certificates/{certificate_id}/archive", handle: tunnels.archiveCertificate},
		// memory_stores.go, memory_stores_memories.go
		{pattern: "POST /v1/memory_stores", handle: mem.createStore},
		{pattern: "GET /v1/memory_stores", handle: mem.listStores},
		{pattern: "GET /v1/memory_stores/{memory_store_id}", handle: mem.getStore},
		{pattern: "POST /v1/memory_stores/{memory_store_id}", handle: mem.updateStore},
		{pattern: "DELETE /v1/memory_stores/{memory_store_id}", handle: mem.deleteStore},
		{pattern: "POST /v1/memory_stores/{memory_store_id}/archive", handle: mem.archiveStore},
		{pattern: "POST /v1/memory_stores/{memory_store_id}/memories", handle: mem.createMemory},
		{pattern: "GET /v1/memory_stores/{memory_store_id}/memories", handle: mem.listMemories},
		{pattern: "GET /v1/memory_stores/{memory_store_id}/memories/{memory_id}", handle: mem.getMemory},
		{pattern: "POST /v1/memory_stores/{memory_store_id}/memories/{memory_id}", handle: mem.updateMemory},
		{pattern: "DELETE /v1/memory_stores/{memory_store_id}/memories/{memory_id}", handle: mem.deleteMemory},
		{pattern: "GET /v1/memory_stores/{memory_store_id}/memory_versions", handle: mem.listVersions},
		{pattern: "GET /v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}", handle: mem.getVersion},
		{pattern: "POST /v1/memory_stores/{memory_store_id}/memory_versions/{memory_version_id}/redact", handle: mem.redactVersion},
		// deployments.go
		{pattern: "POST /v1/deployments", handle: deps.create},
		{pattern: "GET /v1/deployments", handle: deps.list},
		{pattern: "GET /v1/deployments/{deployment_id}", handle: deps.get},
		{pattern: "POST /v1/deployments/{deployment_id}", handle: deps.update},
		{pattern: "POST /v1/deployments/{deployment_id}/archive", handle: deps.archive},
		{pattern: "POST /v1/deployments/{deployment_id}/pause", handle: deps.setStatus("paused", json.RawMessage(`{"type":"manual"}`))},
		{pattern: "POST /v1/deployments/{deployment_id}/unpause", handle: deps.setStatus("active", json.RawMessage("null"))},
		{pattern: "POST /v1/deployments/{deployment_id}/run", handle: deps.runNow},
		{pattern: "GET /v1/deployment_runs", handle: deps.listRuns},
		{pattern: "GET /v1/deployment_runs/{deployment_run_id}", handle: deps.getRun},
		// dreams.go
		{pattern: "POST /v1/dreams", handle: dreams.create},
		{pattern: "GET /v1/dreams", handle: dreams.list},
		{pattern: "GET /v1/dreams/{dream_id}", handle: dreams.get},
		{pattern: "POST /v1/dreams/{dream_id}/archive", handle: dreams.archive},
		{pattern: "POST /v1/dreams/{dream_id}/cancel", handle: dreams.cancel},
	}, append(s.org.routes(), s.org.betaRoutes()...)...) // admin*.go: the Organization API
}

// registerRoutes registers the routes on the server's mux and indexes them
// by pattern, so the rule chain can ask what a request's route needs.
func (s *Server) registerRoutes() {
	s.routeByPattern = map[string]*route{}
	for _, rt := range s.routes() {
		s.routeByPattern[rt.pattern] = &rt
		h := rt.handle
		if h == nil { // an open route is served by serve itself
			h = func(http.ResponseWriter, *http.Request) {}
		}
		s.mux.HandleFunc(rt.pattern, s.withWebhook(rt.pattern, h))
	}
}

// match returns the route r's method and path select, or nil when there is
// none (a 404 or 405) or the path is not canonical (the mux redirects it).
func (s *Server) match(r *http.Request) *route {
	_, pattern := s.mux.Handler(r)
	if !canonical(r.URL.Path) { // the mux answers a redirect, whatever pattern it names
		return nil
	}
	return s.routeByPattern[pattern]
}

// canonical reports whether p is a path the mux serves as it is, without
// redirecting to its cleaned form.
func canonical(p string) bool {
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np == p
}
