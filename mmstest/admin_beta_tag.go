package mmstest

type tagState struct{}

func (o *orgStore) tagRoutes() []route { return nil }
