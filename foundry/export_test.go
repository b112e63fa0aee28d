package foundry

// BaseURLForTest returns the base URL of the adapter WithResource makes.
func BaseURLForTest(resource string, opts ...Option) (string, error) {
	a, err := newAdapter(resource, opts)
	if err != nil {
		return "", err
	}
	return a.BaseURL()
}
