package mms_test

import (
	"context"
	"fmt"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

func ExampleModelsService_List() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	for m, err := range client.Models.List(context.Background(), mms.ModelListParams{Limit: 2}) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println(m.ID, *m.MaxInputTokens)
	}
	// Output:
	// mms-large-1 1000000
	// mms-medium-1 200000
	// mms-small-1 200000
	// mms-tiny-0 100000
}

func ExampleModelsService_ListPage() {
	srv := mmstest.NewServer()
	defer srv.Close()
	client, err := mms.NewClient(option.WithAPIKey(mmstest.DefaultAPIKey), option.WithBaseURL(srv.URL))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	params := mms.ModelListParams{Limit: 3}
	for {
		page, err := client.Models.ListPage(ctx, params)
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		fmt.Println(len(page.Data), "models, more:", page.HasMore)
		if !page.HasMore {
			break
		}
		params.AfterID = *page.LastID
	}
	// Output:
	// 3 models, more: true
	// 1 models, more: false
}
