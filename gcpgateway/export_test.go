package gcpgateway

// BaseURLForTest returns the base URL of the adapter WithProject makes.
func BaseURLForTest(project, workspace string, opts ...Option) (string, error) {
	a, err := newAdapter(project, workspace, opts)
	if err != nil {
		return "", err
	}
	return a.BaseURL()
}
