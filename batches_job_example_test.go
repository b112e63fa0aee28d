package mms_test

import (
	"context"
	"fmt"
	"os"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
)

func ExampleBatchesService_NewJob() {
	srv := mmstest.NewServer(mmstest.WithBatchProcessingTime(0))
	defer srv.Close()
	client, err := mms.NewClient(srv.ClientOptions()...)
	if err != nil {
		panic(err)
	}
	dir, err := os.MkdirTemp("", "batch-job-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	// The requests are made as the job asks for them: a million of them
	// never sit in memory at once.
	requests := func(yield func(mms.BatchRequest) bool) {
		for i := range 3 {
			r := mms.BatchRequest{CustomID: fmt.Sprintf("question-%d", i), Params: mms.MessageCreateParams{
				Model: "mms-large-1", MaxTokens: 64,
				Messages: []mms.MessageParam{mms.UserText(fmt.Sprintf("What is %d + %d?", i, i))},
			}}
			if !yield(r) {
				return
			}
		}
	}
	job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{
		Requests: requests, Dir: dir, PollInterval: 10 * time.Millisecond,
	})
	if err != nil {
		panic(err)
	}
	defer job.Close()
	// Run the same program again after a crash and it resumes from dir.
	for res, err := range job.Results(context.Background()) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		if ok, isOK := res.Result.(mms.SucceededBatchResult); isOK {
			fmt.Println(res.CustomID, "->", ok.Message.Text())
		}
	}
	fmt.Println(job.Progress().Succeeded, "succeeded")
	// Unordered output:
	// question-0 -> You said: What is 0 + 0?
	// question-1 -> You said: What is 1 + 1?
	// question-2 -> You said: What is 2 + 2?
	// 3 succeeded
}
