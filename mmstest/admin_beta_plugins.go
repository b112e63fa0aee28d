package mmstest

type pluginState struct{}

func (o *orgStore) pluginRoutes() []route { return nil }
