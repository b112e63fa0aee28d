package awsgateway

import "github.com/aws/aws-sdk-go-v2/aws"

// BaseURLForTest returns the base URL of the adapter WithConfig makes.
func BaseURLForTest(cfg aws.Config, opts ...Option) (string, error) {
	a, err := newAdapter(cfg, opts)
	if err != nil {
		return "", err
	}
	return a.BaseURL()
}
