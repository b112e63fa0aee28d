package mms_test

import (
	"errors"
	"fmt"

	mms "github.com/mms-sdk/mms-go"
)

func ExampleParseOutput() {
	type Answer struct {
		City    string `json:"city"`
		Celsius int    `json:"celsius"`
	}
	// format goes in MessageCreateParams.OutputConfig.Format.
	if _, err := mms.OutputFormatFor[Answer](); err != nil {
		panic(err)
	}
	// msg is what Messages.Create returned (or a stream accumulator's Message).
	msg := &mms.Message{
		Content:    mms.ContentBlocks{mms.TextBlock{Text: `{"city":"Oslo","celsius":-3}`}},
		StopReason: mms.StopReasonEndTurn,
	}
	a, err := mms.ParseOutput[Answer](msg)
	fmt.Println(a.City, a.Celsius, err)

	cut := &mms.Message{
		Content:    mms.ContentBlocks{mms.TextBlock{Text: `{"city":"Os`}},
		StopReason: mms.StopReasonMaxTokens,
	}
	_, err = mms.ParseOutput[Answer](cut)
	var oe *mms.OutputError
	fmt.Println(errors.Is(err, mms.ErrOutputTruncated), errors.As(err, &oe) && oe.Text == `{"city":"Os`)
	// Output:
	// Oslo -3 <nil>
	// true true
}
