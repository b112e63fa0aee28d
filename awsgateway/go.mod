module github.com/mms-sdk/mms-go/awsgateway

go 1.24.0

require (
	github.com/aws/aws-sdk-go-v2 v1.48.0
	github.com/google/go-cmp v0.7.0
	github.com/mms-sdk/mms-go v0.0.0
)

require (
	github.com/aws/smithy-go v1.28.9 // indirect
	golang.org/x/time v0.14.0 // indirect
)

replace github.com/mms-sdk/mms-go => ../
