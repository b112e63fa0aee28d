package mmstest

// seedMemoryStore adds a store with a chosen id, for tests of other
// families that name one.
func seedMemoryStore(s *Server, id string) {
	ts := s.now().UTC().Format(fileTimeLayout)
	st := s.memoryStores
	st.mu.Lock()
	defer st.mu.Unlock()
	st.stores = append(st.stores, &memoryStoreWire{ID: id, Type: "memory_store", Name: id, Metadata: map[string]string{}, CreatedAt: ts, UpdatedAt: ts})
}
