// Command observability traces and measures the client with
// OpenTelemetry: the otel module's observer turns every call into spans
// and metrics by the GenAI semantic conventions, and the SDK's stdout
// exporters print them. It sends one message and streams another, under
// one span of its own, so both chat spans and their HTTP attempts share
// its trace. Copy it into your program and swap the stdout exporters for
// your backend's; it reads its settings from the environment. It is a
// module of its own (for the OpenTelemetry SDK), so run it from its
// directory:
//
//	VENDOR_API_KEY=... VENDOR_BASE_URL=https://... go run .
//
// With neither set it runs against mmstest, the SDK's built-in fake, and
// says so on stderr:
//
//	go run .
//
// OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental selects the
// conventions' latest experimental attribute names.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/option"
	mmsotel "github.com/mms-sdk/mms-go/otel"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

func main() {
	model := os.Getenv("VENDOR_MODEL")
	if model == "" {
		model = "mms-large-1"
	}
	// In your program, run's mms.NewClient reads $VENDOR_API_KEY (or
	// $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, Start starts
	// the built-in fake, and its options send the client there.
	fake := exampleclient.Start()
	defer fake.Close()
	if err := run(context.Background(), fake.Options(), model, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run makes a client from opts with the observer, sends a message and
// streams one, then flushes the spans and the metrics to out.
func run(ctx context.Context, opts []option.RequestOption, model string, out io.Writer) (err error) {
	spans, err := stdouttrace.New(stdouttrace.WithWriter(out), stdouttrace.WithPrettyPrint())
	if err != nil {
		return err
	}
	metrics, err := stdoutmetric.New(stdoutmetric.WithWriter(out), stdoutmetric.WithPrettyPrint())
	if err != nil {
		return err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(spans))
	// The periodic reader exports every minute, and once more on shutdown.
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewPeriodicReader(metrics)))
	defer func() {
		// Shutting down flushes what is left: the spans, then the metrics.
		err = errors.Join(err, tp.Shutdown(ctx), mp.Shutdown(ctx))
	}()

	obs := mmsotel.NewObserver(mmsotel.WithTracerProvider(tp), mmsotel.WithMeterProvider(mp))
	client, err := mms.NewClient(append(opts, option.WithObserver(obs))...)
	if err != nil {
		return err
	}

	// The program's own span: the client's spans become its children.
	ctx, span := tp.Tracer("example").Start(ctx, "answer-questions")
	defer span.End()

	msg, err := client.Messages.Create(ctx, mms.MessageCreateParams{
		Model: model, MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserText("Name a primary colour.")},
	})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	fmt.Fprintf(out, "create: %s\n", msg.Text())

	var acc mms.MessageAccumulator
	for text, err := range acc.Text(client.Messages.Stream(ctx, mms.MessageCreateParams{
		Model: model, MaxTokens: 256,
		Messages: []mms.MessageParam{mms.UserText("Name a secondary colour.")},
	})) {
		if err != nil {
			return fmt.Errorf("stream: %w", err)
		}
		fmt.Fprint(out, text)
	}
	fmt.Fprintln(out)
	return nil
}
