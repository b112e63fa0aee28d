package mms_test

import (
	"context"
	"errors"
	"testing"
	"time"

	mms "github.com/mms-sdk/mms-go"
	"github.com/mms-sdk/mms-go/mmstest"
	"github.com/mms-sdk/mms-go/mmstest/fakeclient"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBatchJobDirLock checks the lock file of a directory store: a second
// owner is refused at once, naming the first, or waits for it.
func TestBatchJobDirLock(t *testing.T) {
	dir := t.TempDir()
	a, b := openDir(t, dir), openDir(t, dir)
	ctx := context.Background()
	la, err := a.LockJob(ctx, false)
	require.NoError(t, err)
	require.NoError(t, la.Check())

	_, err = b.LockJob(ctx, false)
	var owned *mms.BatchJobOwnedError
	require.ErrorAs(t, err, &owned)
	assert.ErrorIs(t, err, mms.ErrBatchJobOwned)
	assert.Equal(t, mms.BatchJobOwner(), owned.Owner)
	assert.Contains(t, err.Error(), mms.BatchJobOwner())

	short, cancel := context.WithTimeout(ctx, 120*time.Millisecond)
	defer cancel()
	_, err = b.LockJob(short, true)
	require.ErrorIs(t, err, context.DeadlineExceeded)

	got := make(chan error, 1)
	go func() {
		lb, err := b.LockJob(ctx, true)
		if err == nil {
			err = lb.Release(ctx)
		}
		got <- err
	}()
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-got:
		t.Fatalf("the waiting owner got the lock while it was held: %v", err)
	default:
	}
	require.NoError(t, la.Release(ctx))
	require.ErrorIs(t, la.Check(), mms.ErrBatchJobLeaseLost)
	require.NoError(t, <-got)
}

// TestBatchJobDirOwnedJob checks that a job over a directory another owner
// holds fails at once naming it, and with WaitForOwner runs once it is free.
func TestBatchJobDirOwnedJob(t *testing.T) {
	client, srv := fakeclient.New(t, mmstest.WithBatchProcessingTime(0))
	dir := t.TempDir()
	holder := openDir(t, dir)
	lease, err := holder.LockJob(context.Background(), false)
	require.NoError(t, err)

	params := mms.BatchJobParams{Requests: jobInput(5), Store: openDir(t, dir), PollInterval: time.Millisecond}
	job, err := client.Messages.Batches.NewJob(params)
	require.NoError(t, err)
	seen := map[string]int{}
	err = collectJob(t, job, context.Background(), seen)
	require.ErrorIs(t, err, mms.ErrBatchJobOwned)
	assert.Empty(t, seen)
	assert.Zero(t, srv.BatchSubmissions("req-000000"))

	params.WaitForOwner = true
	job, err = client.Messages.Batches.NewJob(params)
	require.NoError(t, err)
	time.AfterFunc(100*time.Millisecond, func() { lease.Release(context.Background()) })
	require.NoError(t, collectJob(t, job, context.Background(), seen))
	assert.Len(t, seen, 5)
	if !errors.Is(lease.Check(), mms.ErrBatchJobLeaseLost) {
		t.Error("the released lease still checks as held")
	}
}
