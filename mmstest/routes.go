package mmstest

// registerRoutes registers every endpoint of the fake; add new endpoints here
// so that the whole surface is listed in one place. Handlers run after the
// rule chain in rules.go, so they can rely on an authenticated request with a
// valid version, betas and a buffered body within the size limit.
func (s *Server) registerRoutes() {
	s.mux.HandleFunc("GET /v1/models", s.listModels)
	s.mux.HandleFunc("GET /v1/models/{model_id}", s.getModel)
	s.mux.HandleFunc("POST /v1/messages", s.createMessage)
	s.mux.HandleFunc("POST /v1/messages/count_tokens", s.countTokens)
}
