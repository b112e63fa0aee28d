module github.com/mms-sdk/mms-go/examples/vertex

go 1.24.0

require (
	github.com/mms-sdk/mms-go v0.0.0
	github.com/mms-sdk/mms-go/vertex v0.0.0
)

require (
	cloud.google.com/go/compute/metadata v0.3.0 // indirect
	golang.org/x/oauth2 v0.34.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)

replace (
	github.com/mms-sdk/mms-go => ../../
	github.com/mms-sdk/mms-go/vertex => ../../vertex
)
