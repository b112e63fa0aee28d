package main

import (
	"github.com/mms-sdk/mms-go/bedrock"
	"github.com/mms-sdk/mms-go/bedrock/bedrocktest"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// offline starts the SDK's built-in fake behind a simulated Amazon Bedrock
// (bedrocktest: SigV4 checked, InvokeModel's wire), serving the model ids
// of the fake and model, and returns the client options that reach it in
// place of the machine's AWS configuration, and the fake to close.
func offline(model string) ([]option.RequestOption, *exampleclient.Fake) {
	models := mmstest.DefaultModels()
	bedrockModel := models[0] // mms-large-1, under the Bedrock id asked for
	bedrockModel.ID, bedrockModel.Aliases = model, nil
	fake := exampleclient.StartFake("no AWS region configured (set $AWS_REGION for Amazon Bedrock)",
		mmstest.WithPlatform(bedrocktest.Front()), mmstest.WithModels(append(models, bedrockModel)))
	return []option.RequestOption{
		// The front's region and the static credentials it checks
		// signatures with.
		bedrock.WithConfig(bedrocktest.Config()),
		option.WithBaseURL(fake.URL), option.WithHTTPClient(fake.Client()),
	}, fake
}
