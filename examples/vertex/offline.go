package main

import (
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
	"github.com/mms-sdk/mms-go/vertex"
	"github.com/mms-sdk/mms-go/vertex/vertextest"
)

// offlineModel is the model asked for offline when $VENDOR_MODEL is unset.
const offlineModel = "mms-large-1@20260501"

// offline starts the SDK's built-in fake behind a simulated Vertex AI
// (vertextest: its paths, bearer tokens checked), serving the fake's
// models and model, and returns the client options that reach it in place
// of Application Default Credentials, and the fake to close.
func offline(model string) ([]option.RequestOption, *exampleclient.Fake) {
	models := mmstest.DefaultModels()
	vertexModel := models[0] // mms-large-1, under the Vertex id asked for
	vertexModel.ID, vertexModel.Aliases = model, nil
	tokens := &vertextest.TokenSource{}
	fake := exampleclient.StartFake("no Vertex AI project configured (set $"+vertex.EnvRegion+" and $"+vertex.EnvProjectID+")",
		mmstest.WithPlatform(vertextest.Front(tokens)), mmstest.WithModels(append(models, vertexModel)))
	return []option.RequestOption{
		vertex.WithProject(vertextest.Region, vertextest.Project, vertex.WithTokenSource(tokens)),
		option.WithBaseURL(fake.URL), option.WithHTTPClient(fake.Client()),
	}, fake
}
