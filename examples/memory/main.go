// Command memory tours the memory stores: it creates a store, writes a few
// memories, lists them under a prefix with the deeper directories rolled
// up, updates one guarded by the hash of the content it read, shows the
// refusal of an update whose guard is stale (matched with errors.Is),
// lists the memory's versions and redacts the oldest one.
//
// It reads its credentials and address from the environment, as
// mms.NewClient does ($VENDOR_API_KEY or $VENDOR_AUTH_TOKEN, and
// $VENDOR_BASE_URL); with none of them set it runs against mmstest, the
// SDK's built-in fake, and says so on stderr:
//
//	go run ./examples/memory
//
// The store is deleted at the end.
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
)

func main() {
	// In your program: client, err := mms.NewClient(), which reads $VENDOR_API_KEY
	// (or $VENDOR_AUTH_TOKEN) and $VENDOR_BASE_URL. Without them, New runs
	// the example against the built-in fake.
	client, fake, err := exampleclient.New()
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	if err := run(context.Background(), client, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run is the whole example; main_test.go runs it against mmstest.
func run(ctx context.Context, client *mms.Client, out io.Writer) error {
	// 1. A store. Sessions that name it mount it under
	// /mnt/memory/<slug of the name>; the description is shown to the agent.
	store, err := client.MemoryStores.Create(ctx, mms.MemoryStoreCreateParams{
		Name:        "Support playbook",
		Description: "What the support agents learned about our customers.",
		Metadata:    map[string]string{"team": "support"},
	})
	if err != nil {
		return fmt.Errorf("create store: %w", err)
	}
	fmt.Fprintf(out, "created store %s %q\n", store.ID, store.Name)
	mems := client.MemoryStores.Memories

	// 2. A few memories. Paths are unique per store.
	var first *mms.Memory
	for _, m := range []mms.MemoryCreateParams{
		{Path: "/customers/acme.md", Content: "Acme prefers email."},
		{Path: "/customers/emea/globex.md", Content: "Globex is in CET."},
		{Path: "/customers/emea/initech.md", Content: "Initech escalates fast."},
		{Path: "/style.md", Content: "Be brief."},
	} {
		created, err := mems.Create(ctx, store.ID, m)
		if err != nil {
			return fmt.Errorf("create %s: %w", m.Path, err)
		}
		if first == nil {
			first = created
		}
		fmt.Fprintf(out, "wrote %s (%d bytes)\n", created.Path, created.ContentSizeBytes)
	}

	// 3. One level under /customers/: the memories there, and the deeper
	// directory rolled up into a prefix to descend into.
	fmt.Fprintln(out, "under /customers/, depth 1:")
	for item, err := range mems.List(ctx, store.ID, mms.MemoryListParams{PathPrefix: "/customers/", Depth: 1}) {
		if err != nil {
			return fmt.Errorf("list: %w", err)
		}
		switch v := item.(type) {
		case mms.Memory:
			fmt.Fprintf(out, "  memory %s\n", v.Path)
		case mms.MemoryPrefix:
			fmt.Fprintf(out, "  directory %s\n", v.Path)
		}
	}

	// 4. Read the content, then update it only if nobody changed it since:
	// the precondition carries the hash of what we read.
	read, err := mems.Get(ctx, store.ID, first.ID, mms.MemoryGetParams{View: mms.MemoryViewFull})
	if err != nil {
		return fmt.Errorf("get: %w", err)
	}
	updated, err := mems.Update(ctx, store.ID, read.ID, mms.MemoryUpdateParams{
		Content:      mms.Ptr(*read.Content + " Never call before 10:00."),
		Precondition: &mms.MemoryPrecondition{ContentSHA256: read.ContentSHA256},
	})
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	fmt.Fprintf(out, "updated %s to %d bytes\n", updated.Path, updated.ContentSizeBytes)

	// 5. The same guard again is stale now: the service refuses the write
	// rather than lose the change above.
	_, err = mems.Update(ctx, store.ID, read.ID, mms.MemoryUpdateParams{
		Content:      mms.Ptr("Acme prefers phone."),
		Precondition: &mms.MemoryPrecondition{ContentSHA256: mms.ContentSHA256(*read.Content)},
	})
	switch {
	case errors.Is(err, mms.ErrMemoryPreconditionFailed):
		fmt.Fprintln(out, "stale update refused: the memory changed since it was read")
	case err != nil:
		return fmt.Errorf("stale update: %w", err)
	default:
		return errors.New("stale update: the service accepted it")
	}

	// 6. The memory's history, newest first, and the redaction of the
	// oldest version: its content and path are erased for good.
	var oldest *mms.MemoryVersionRecord
	for v, err := range client.MemoryStores.Versions.List(ctx, store.ID, mms.MemoryVersionListParams{MemoryID: first.ID}) {
		if err != nil {
			return fmt.Errorf("versions: %w", err)
		}
		fmt.Fprintf(out, "  version %s: %s, %d bytes\n", v.ID, v.Operation, *v.ContentSizeBytes)
		oldest = &v
	}
	redacted, err := client.MemoryStores.Versions.Redact(ctx, store.ID, oldest.ID)
	if err != nil {
		return fmt.Errorf("redact: %w", err)
	}
	fmt.Fprintf(out, "redacted %s: path erased %v, redacted at %s\n", redacted.ID, redacted.Path == nil, *redacted.RedactedAt)

	if _, err := client.MemoryStores.Delete(ctx, store.ID); err != nil {
		return fmt.Errorf("delete store: %w", err)
	}
	fmt.Fprintln(out, "deleted the store")
	return nil
}
