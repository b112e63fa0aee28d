// Package postgres keeps the state of mms batch jobs in PostgreSQL, so a
// job outlives the machine that started it and resumes on any other, and
// lets one process at a time own a job.
//
//	package main
//
//	import (
//		"context"
//		"fmt"
//		"iter"
//		"log"
//		"os"
//
//		"github.com/jackc/pgx/v5/pgxpool"
//
//		mms "github.com/mms-sdk/mms-go"
//		"github.com/mms-sdk/mms-go/batchstore/postgres"
//	)
//
//	func main() {
//		ctx := context.Background()
//		pool, err := pgxpool.New(ctx, os.Getenv("DATABASE_URL"))
//		if err != nil {
//			log.Fatal(err)
//		}
//		defer pool.Close()
//		store, err := postgres.Open(ctx, pool, "nightly-eval-2026-11-28", nil)
//		if err != nil {
//			log.Fatal(err)
//		}
//		client, err := mms.NewClient()
//		if err != nil {
//			log.Fatal(err)
//		}
//		job, err := client.Messages.Batches.NewJob(mms.BatchJobParams{Requests: requests(), Store: store})
//		if err != nil {
//			log.Fatal(err)
//		}
//		defer job.Close()
//		for res, err := range job.Results(ctx) {
//			if err != nil {
//				log.Fatal(err) // another process owns the job, or lost it: run again
//			}
//			fmt.Println(res.CustomID)
//		}
//	}
//
//	// requests yields the job's requests, the same ones on every range.
//	func requests() iter.Seq[mms.BatchRequest] {
//		return func(yield func(mms.BatchRequest) bool) {
//			for i := range 1000 {
//				req := mms.BatchRequest{CustomID: fmt.Sprint("q-", i), Params: mms.MessageCreateParams{
//					Model: "mms-large-1", MaxTokens: 64,
//					Messages: []mms.MessageParam{mms.UserText(fmt.Sprint("What is ", i, " squared?"))},
//				}}
//				if !yield(req) {
//					return
//				}
//			}
//		}
//	}
//
// A [Store] is an mms.BatchJobStore (atomic Put, Append committed when it
// returns, Records in order, never a record cut short: a record is a row)
// and an mms.BatchJobLocker: a job run takes the job's lease, renews it
// while it runs and gives it up at the end; a process that dies loses it
// Options.LeaseTTL after its last renewal at most. Every write of the
// running job carries the lease's fencing token and is refused once
// another owner has taken the job, so a process paused past its lease
// writes nothing when it wakes. A second process that asks for an owned
// job fails at once with an *mms.BatchJobOwnedError naming the owner, or
// waits (mms.BatchJobParams.WaitForOwner).
//
// Calls retry a lost connection and a restarting server, for up to
// Options.RetryFor (and an owner's writes only while its lease holds).
//
// # Tables
//
// Jobs of any number share five tables, in the connection's current schema
// (the first of its search_path; name another with search_path in the
// connection string): mms_batch_schema (the tables' version),
// mms_batch_jobs (a row per job: owner, lease, fencing token),
// mms_batch_keys, mms_batch_values and mms_batch_records. [Open] creates
// them or migrates them to [SchemaVersion] (see [Migrate]), inside a
// transaction under an advisory lock, so processes starting together do
// it once.
//
// # Privileges
//
// The role the pool connects as needs, to create or migrate the tables
// (once per version): CREATE on the schema (and to own the tables it
// made). To use them afterwards: USAGE on the schema and SELECT, INSERT
// and UPDATE on the five tables. A role that cannot create tables works
// once another has migrated them: GRANT USAGE ON SCHEMA app TO runner, then
// GRANT SELECT, INSERT, UPDATE ON mms_batch_schema, mms_batch_jobs,
// mms_batch_keys, mms_batch_values, mms_batch_records TO runner.
//
// Nothing is ever deleted: a finished job's rows stay until removed by
// hand (DELETE ... WHERE job = '<name>' on the four job tables).
package postgres
