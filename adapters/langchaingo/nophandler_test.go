package langchaingo

import "github.com/tmc/langchaingo/callbacks"

// nopHandler is langchaingo's callbacks.SimpleHandler under a local name.
type nopHandler = callbacks.SimpleHandler
