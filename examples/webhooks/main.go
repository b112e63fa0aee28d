// Command webhooks receives the service's webhook deliveries with the
// SDK's handler, offline: mmstest, the SDK's built-in fake, delivers
// signed webhooks for what happens in it to a receiver this program runs
// on 127.0.0.1. The handler verifies each delivery (the Standard Webhooks
// signature, the timestamp), drops redeliveries, and hands the typed event
// to a function that fetches the object the event names. Halfway through,
// the fake rotates its signing secret: the handler knows the old and the
// new secret, so no delivery is refused. A forged delivery is.
//
// The service cannot reach a receiver on this machine, so the example
// always runs against the fake:
//
//	go run ./examples/webhooks
//
// In your program, the receiver is a public HTTPS URL registered as a
// webhook endpoint, and the secret the one the service returned:
//
//	client, err := mms.NewClient(option.WithWebhookSecret(os.Getenv("MY_WEBHOOK_SECRET")))
//	http.Handle("POST /webhooks", client.Webhooks.Handler(handle))
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/internal/exampleclient"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/option"
)

// The secrets: the endpoint's current one, and the one the fake rotates to.
const (
	oldSecret = mmstest.DefaultWebhookSecret
	newSecret = "whsec_ZXhhbXBsZS1yb3RhdGVkLXNpZ25pbmcta2V5"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// receiver handles the events and remembers what it saw.
type receiver struct {
	client *mms.Client
	out    io.Writer

	mu     sync.Mutex
	seen   map[string]int // event type -> times handled
	idled  chan struct{}  // closed on the first session.status_idled
	closed bool
}

// handle is the typed handler: one call per event, redeliveries dropped.
// It fetches the object the event names (an event carries ids only); an
// error would answer 500, and the service would deliver it again.
func (rc *receiver) handle(ctx context.Context, wh *mms.Webhook) error {
	line := fmt.Sprintf("event %s about %s", wh.Data.EventType(), wh.Data.ObjectID())
	switch obj, err := rc.client.Webhooks.Fetch(ctx, wh.Data); {
	case errors.Is(err, mms.ErrWebhookNoObject):
		line += " (nothing to fetch)"
	case err != nil:
		return err
	default:
		switch o := obj.(type) {
		case *mms.Session:
			line += ": session status " + string(o.Status)
		case *mms.Agent:
			line += fmt.Sprintf(": agent %q, version %d", o.Name, o.Version)
		case *mms.Environment:
			line += fmt.Sprintf(": environment %q", o.Name)
		default:
			line += fmt.Sprintf(": %T", o)
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	fmt.Fprintln(rc.out, line)
	rc.seen[wh.Data.EventType()]++
	if _, ok := wh.Data.(mms.WebhookSessionStatusIdled); ok && !rc.closed {
		close(rc.idled)
		rc.closed = true
	}
	return nil
}

// run is the whole example; main_test.go runs it.
func run(ctx context.Context, out io.Writer) error {
	// 1. The receiver's address, before the fake that delivers to it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	defer srv.Close()
	url := "http://" + l.Addr().String() + "/webhooks"

	// 2. The fake delivers every event to it, signed with oldSecret, and
	// delivers each one a second time, as the service may.
	fake := exampleclient.StartFake("webhooks go to a receiver on 127.0.0.1, which the service cannot reach",
		mmstest.WithWebhooks(url, oldSecret), mmstest.WithWebhookRedeliveries(1))
	defer fake.Close()

	// 3. The client, and the handler: it knows both secrets, so a delivery
	// signed with either verifies while the secret is rotated.
	client, err := mms.NewClient(append(fake.Options(), option.WithWebhookSecret(oldSecret, newSecret))...)
	if err != nil {
		return err
	}
	rc := &receiver{client: client, out: out, seen: map[string]int{}, idled: make(chan struct{})}
	mux.Handle("POST /webhooks", client.Webhooks.Handler(rc.handle))

	// 4. Things happen: an agent, an environment, a session that runs a turn.
	agent, err := client.Agents.Create(ctx, mms.AgentCreateParams{Name: "greeter", Model: mms.AgentModel("mms-large-1")})
	if err != nil {
		return err
	}
	env, err := client.Environments.Create(ctx, mms.EnvironmentCreateParams{Name: "sandbox"})
	if err != nil {
		return err
	}
	session, err := client.Sessions.Create(ctx, mms.SessionCreateParams{Agent: mms.SessionAgentID(agent.ID), EnvironmentID: env.ID})
	if err != nil {
		return err
	}
	if _, err := client.Sessions.Events.Send(ctx, session.ID, mms.SessionEventSendParams{
		Events: []mms.SessionEventParams{mms.NewUserMessageEvent("hello")}}); err != nil {
		return err
	}
	select {
	case <-rc.idled:
	case <-time.After(30 * time.Second):
		return errors.New("the session never went idle")
	}

	// 5. The fake rotates its secret (as regenerating the endpoint's
	// secret does): deliveries from now on are signed with newSecret only.
	if err := fake.RotateWebhookSecret(newSecret); err != nil {
		return err
	}
	if _, err := client.Agents.Archive(ctx, agent.ID); err != nil {
		return err
	}
	if err := fake.WaitWebhooks(ctx); err != nil {
		return err
	}

	// 6. A forged delivery: signed with a secret the handler does not know.
	forged, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(`{"type":"event"}`))
	if err != nil {
		return err
	}
	forged.Header.Set("webhook-id", "msg_forged")
	forged.Header.Set("webhook-timestamp", fmt.Sprint(time.Now().Unix()))
	forged.Header.Set("webhook-signature", "v1,bm90IHRoZSBzaWduYXR1cmUgb2YgdGhpcyBkZWxpdmVyeQ==")
	resp, err := http.DefaultClient.Do(forged)
	if err != nil {
		return err
	}
	resp.Body.Close()
	fmt.Fprintf(out, "a forged delivery is answered %d\n", resp.StatusCode)

	deliveries := fake.WebhookDeliveries()
	redelivered := 0
	for _, d := range deliveries {
		if d.Redelivery {
			redelivered++
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	handled := 0
	for _, n := range rc.seen {
		handled += n
	}
	fmt.Fprintf(out, "%d deliveries (%d of them redeliveries): %d events handled, each once\n", len(deliveries), redelivered, handled)
	return nil
}
