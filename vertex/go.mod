module github.com/mms-sdk/mms-go/vertex

go 1.24.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/mms-sdk/mms-go v0.0.0
	go.uber.org/goleak v1.3.0
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect

require (
	cloud.google.com/go/compute/metadata v0.3.0 // indirect
	golang.org/x/oauth2 v0.34.0
	golang.org/x/time v0.14.0 // indirect
)

replace github.com/mms-sdk/mms-go => ../
