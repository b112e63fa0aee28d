package mmstest

// registerRoutes registers every endpoint of the fake; add new endpoints here
// so that the whole surface is listed in one place. Handlers run after the
// rule chain in rules.go, so they can rely on an authenticated request with a
// valid version, betas and a buffered body within the size limit.
func (s *Server) registerRoutes() {
	s.mux.HandleFunc("GET /v1/models", s.listModels)
	s.mux.HandleFunc("GET /v1/models/{model_id}", s.getModel)
	files := newFileStore(s) // the file routes share one store; see files.go
	// Messages check the file ids they name against the store (files.go).
	s.mux.HandleFunc("POST /v1/messages", files.withFileRefs("create", s.createMessage))
	s.mux.HandleFunc("POST /v1/messages/count_tokens", files.withFileRefs("count_tokens", s.countTokens))
	batches := newBatchStore(s) // the batch routes share one store; see batches.go
	s.mux.Handle("POST /v1/messages/batches", batches.route((*batchStore).create))
	s.mux.Handle("GET /v1/messages/batches", batches.route((*batchStore).list))
	s.mux.Handle("GET /v1/messages/batches/{message_batch_id}", batches.route((*batchStore).get))
	s.mux.Handle("POST /v1/messages/batches/{message_batch_id}/cancel", batches.route((*batchStore).cancel))
	s.mux.Handle("DELETE /v1/messages/batches/{message_batch_id}", batches.route((*batchStore).delete))
	s.mux.Handle("GET /v1/messages/batches/{message_batch_id}/results", batches.route((*batchStore).results))
	s.mux.Handle("POST /v1/files", files.route((*fileStore).upload))
	s.mux.Handle("GET /v1/files", files.route((*fileStore).list))
	s.mux.Handle("GET /v1/files/{file_id}", files.route((*fileStore).get))
	s.mux.Handle("GET /v1/files/{file_id}/content", files.route((*fileStore).download))
	s.mux.Handle("DELETE /v1/files/{file_id}", files.route((*fileStore).delete))
	skills := newSkillStore(s) // see skills.go
	s.mux.Handle("POST /v1/skills", skills.route((*skillStore).create))
	s.mux.Handle("GET /v1/skills", skills.route((*skillStore).list))
	s.mux.Handle("GET /v1/skills/{skill_id}", skills.route((*skillStore).get))
	s.mux.Handle("DELETE /v1/skills/{skill_id}", skills.route((*skillStore).delete))
	s.mux.Handle("POST /v1/skills/{skill_id}/versions", skills.route((*skillStore).createVersion))
	s.mux.Handle("GET /v1/skills/{skill_id}/versions", skills.route((*skillStore).listVersions))
	s.mux.Handle("GET /v1/skills/{skill_id}/versions/{version}", skills.route((*skillStore).getVersion))
	s.mux.Handle("DELETE /v1/skills/{skill_id}/versions/{version}", skills.route((*skillStore).deleteVersion))
}
