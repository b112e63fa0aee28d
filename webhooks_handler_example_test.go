package mms_test

import (
	"context"
	"log"
	"net/http"
	"os"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/option"
)

// handleEvent is called once per event the service delivers (redeliveries
// are dropped by the handler). An error answers 500, and the service
// delivers the event again.
func handleEvent(client *mms.Client) func(context.Context, *mms.Webhook) error {
	return func(ctx context.Context, wh *mms.Webhook) error {
		switch ev := wh.Data.(type) {
		case mms.WebhookSessionStatusIdled:
			session, err := client.Sessions.Get(ctx, ev.ID)
			if err != nil {
				return err
			}
			log.Printf("session %s is %s", session.ID, session.Status)
		case mms.UnknownWebhookEvent:
			log.Printf("event %s, new to this SDK version", ev.Type)
		default:
			log.Printf("event %s about %s", ev.EventType(), ev.ObjectID())
		}
		return nil
	}
}

// A complete webhook receiver: the client's credential and base URL come
// from the environment, the signing secret from an option (or
// $VENDOR_WEBHOOK_SIGNING_KEY). Test it offline with
// mmstest.WithWebhooks, as examples/webhooks does.
func ExampleWebhooksService_Handler() {
	client, err := mms.NewClient(option.WithWebhookSecret(os.Getenv("MY_WEBHOOK_SECRET")))
	if err != nil {
		log.Fatal(err)
	}
	http.Handle("POST /webhooks", client.Webhooks.Handler(handleEvent(client)))
	log.Fatal(http.ListenAndServe(":8080", nil))
}
