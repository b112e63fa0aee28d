module github.com/mms-sdk/mms-go/foundry

go 1.24.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/mms-sdk/mms-go v0.0.0
)

require golang.org/x/time v0.14.0 // indirect

replace github.com/mms-sdk/mms-go => ../
