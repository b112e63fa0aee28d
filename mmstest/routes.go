package mmstest

// registerRoutes registers every endpoint of the fake; add new endpoints here
// so that the whole surface is listed in one place. Handlers run after the
// rule chain in rules.go, so they can rely on an authenticated request with a
// valid version, betas and a body within the size limit, read whole before
// they run: buffered in memory, or, for a large upload to /v1/files or
// /v1/skills, spooled to a temporary file (uploads.go). The batch, file and
// skill endpoints are methods of the Server's stores.
func (s *Server) registerRoutes() {
	s.mux.HandleFunc("GET /v1/models", s.listModels)
	s.mux.HandleFunc("GET /v1/models/{model_id}", s.getModel)
	files, batches, skills := s.files, s.batches, s.skills // the stores; see files.go, batches.go, skills.go
	// Messages check the file ids they name against the store (files.go).
	s.mux.HandleFunc("POST /v1/messages", files.withFileRefs("create", s.createMessage))
	s.mux.HandleFunc("POST /v1/messages/count_tokens", files.withFileRefs("count_tokens", s.countTokens))
	s.mux.HandleFunc("POST /v1/messages/batches", batches.create)
	s.mux.HandleFunc("GET /v1/messages/batches", batches.list)
	s.mux.HandleFunc("GET /v1/messages/batches/{message_batch_id}", batches.get)
	s.mux.HandleFunc("POST /v1/messages/batches/{message_batch_id}/cancel", batches.cancel)
	s.mux.HandleFunc("DELETE /v1/messages/batches/{message_batch_id}", batches.delete)
	s.mux.HandleFunc("GET /v1/messages/batches/{message_batch_id}/results", batches.results)
	s.mux.HandleFunc("POST /v1/files", files.upload)
	s.mux.HandleFunc("GET /v1/files", files.list)
	s.mux.HandleFunc("GET /v1/files/{file_id}", files.get)
	s.mux.HandleFunc("GET /v1/files/{file_id}/content", files.download)
	s.mux.HandleFunc("DELETE /v1/files/{file_id}", files.delete)
	s.mux.HandleFunc("POST /v1/skills", skills.create)
	s.mux.HandleFunc("GET /v1/skills", skills.list)
	s.mux.HandleFunc("GET /v1/skills/{skill_id}", skills.get)
	s.mux.HandleFunc("DELETE /v1/skills/{skill_id}", skills.delete)
	s.mux.HandleFunc("POST /v1/skills/{skill_id}/versions", skills.createVersion)
	s.mux.HandleFunc("GET /v1/skills/{skill_id}/versions", skills.listVersions)
	s.mux.HandleFunc("GET /v1/skills/{skill_id}/versions/{version}", skills.getVersion)
	s.mux.HandleFunc("DELETE /v1/skills/{skill_id}/versions/{version}", skills.deleteVersion)
	agents := s.agents // agents.go
	s.mux.HandleFunc("POST /v1/agents", agents.create)
	s.mux.HandleFunc("GET /v1/agents", agents.list)
	s.mux.HandleFunc("GET /v1/agents/{agent_id}", agents.get)
	s.mux.HandleFunc("POST /v1/agents/{agent_id}", agents.update)
	s.mux.HandleFunc("POST /v1/agents/{agent_id}/archive", agents.archive)
	s.mux.HandleFunc("GET /v1/agents/{agent_id}/versions", agents.listVersions)
	envs := s.environments // environments.go, environments_work.go
	s.mux.HandleFunc("POST /v1/environments", envs.create)
	s.mux.HandleFunc("GET /v1/environments", envs.list)
	s.mux.HandleFunc("GET /v1/environments/{environment_id}", envs.get)
	s.mux.HandleFunc("POST /v1/environments/{environment_id}", envs.update)
	s.mux.HandleFunc("DELETE /v1/environments/{environment_id}", envs.delete)
	s.mux.HandleFunc("POST /v1/environments/{environment_id}/archive", envs.archive)
	s.mux.HandleFunc("GET /v1/environments/{environment_id}/work/poll", envs.poll)
	s.mux.HandleFunc("GET /v1/environments/{environment_id}/work/stats", envs.stats)
	s.mux.HandleFunc("GET /v1/environments/{environment_id}/work", envs.listWork)
	s.mux.HandleFunc("GET /v1/environments/{environment_id}/work/{work_id}", envs.getWork)
	s.mux.HandleFunc("POST /v1/environments/{environment_id}/work/{work_id}", envs.updateWork)
	s.mux.HandleFunc("POST /v1/environments/{environment_id}/work/{work_id}/ack", envs.ack)
	s.mux.HandleFunc("POST /v1/environments/{environment_id}/work/{work_id}/heartbeat", envs.heartbeat)
	s.mux.HandleFunc("POST /v1/environments/{environment_id}/work/{work_id}/stop", envs.stop)
	vaults := s.vaults // vaults.go, vaults_credentials.go
	s.mux.HandleFunc("POST /v1/vaults", vaults.createVault)
	s.mux.HandleFunc("GET /v1/vaults", vaults.listVaults)
	s.mux.HandleFunc("GET /v1/vaults/{vault_id}", vaults.getVault)
	s.mux.HandleFunc("POST /v1/vaults/{vault_id}", vaults.updateVault)
	s.mux.HandleFunc("DELETE /v1/vaults/{vault_id}", vaults.deleteVault)
	s.mux.HandleFunc("POST /v1/vaults/{vault_id}/archive", vaults.archiveVault)
	s.mux.HandleFunc("POST /v1/vaults/{vault_id}/credentials", vaults.createCredential)
	s.mux.HandleFunc("GET /v1/vaults/{vault_id}/credentials", vaults.listCredentials)
	s.mux.HandleFunc("GET /v1/vaults/{vault_id}/credentials/{credential_id}", vaults.getCredential)
	s.mux.HandleFunc("POST /v1/vaults/{vault_id}/credentials/{credential_id}", vaults.updateCredential)
	s.mux.HandleFunc("DELETE /v1/vaults/{vault_id}/credentials/{credential_id}", vaults.deleteCredential)
	s.mux.HandleFunc("POST /v1/vaults/{vault_id}/credentials/{credential_id}/archive", vaults.archiveCredential)
	s.mux.HandleFunc("POST /v1/vaults/{vault_id}/credentials/{credential_id}/mcp_oauth_validate", vaults.validateCredential)
	sessions := s.sessions // sessions*.go
	s.mux.HandleFunc("POST /v1/sessions", sessions.create)
	s.mux.HandleFunc("GET /v1/sessions", sessions.list)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}", sessions.get)
	s.mux.HandleFunc("POST /v1/sessions/{session_id}", sessions.update)
	s.mux.HandleFunc("DELETE /v1/sessions/{session_id}", sessions.delete)
	s.mux.HandleFunc("POST /v1/sessions/{session_id}/archive", sessions.archive)
	s.mux.HandleFunc("POST /v1/sessions/{session_id}/resources", sessions.addResource)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/resources", sessions.listResources)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/resources/{resource_id}", sessions.getResource)
	s.mux.HandleFunc("POST /v1/sessions/{session_id}/resources/{resource_id}", sessions.updateResource)
	s.mux.HandleFunc("DELETE /v1/sessions/{session_id}/resources/{resource_id}", sessions.deleteResource)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/threads", sessions.listThreads)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/threads/{thread_id}", sessions.getThread)
	s.mux.HandleFunc("POST /v1/sessions/{session_id}/threads/{thread_id}/archive", sessions.archiveThread)
	// Events (sessions_events.go), their streams (sessions_stream.go) and the turns they cause (sessions_sim.go).
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/events", sessions.listEvents)
	s.mux.HandleFunc("POST /v1/sessions/{session_id}/events", sessions.sendEvents)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/events/stream", sessions.streamEvents)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/threads/{thread_id}/events", sessions.listThreadEvents)
	s.mux.HandleFunc("GET /v1/sessions/{session_id}/threads/{thread_id}/stream", sessions.streamThread)
	profiles := s.userProfiles // user_profiles.go
	s.mux.HandleFunc("POST /v1/user_profiles", profiles.create)
	s.mux.HandleFunc("GET /v1/user_profiles", profiles.list)
	s.mux.HandleFunc("GET /v1/user_profiles/{user_profile_id}", profiles.get)
	s.mux.HandleFunc("POST /v1/user_profiles/{user_profile_id}", profiles.update)
	s.mux.HandleFunc("POST /v1/user_profiles/{user_profile_id}/enrollment_url", profiles.enrollmentURL)
}
