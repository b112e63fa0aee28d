package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// SchemaVersion is the version of the tables this module reads and writes.
const SchemaVersion = 1

// migrationLock is the advisory lock key that orders concurrent migrations
// ("mms_batc" in ASCII).
const migrationLock = 0x6d6d735f62617463

// migrations[i] takes the tables from version i to version i+1. A new
// version appends a step; a released step never changes.
var migrations = []string{
	// 1: the jobs (with their leases), the keys (with their kinds), the
	// values and the log records. Keys sort in byte order (COLLATE "C"), as
	// BatchJobStore.Keys promises.
	`CREATE TABLE mms_batch_jobs (
		job         text COLLATE "C" PRIMARY KEY,
		owner       text NOT NULL DEFAULT '',
		token       bigint NOT NULL DEFAULT 0,
		lease_until timestamptz,
		created_at  timestamptz NOT NULL DEFAULT now()
	);
	CREATE TABLE mms_batch_keys (
		job  text COLLATE "C" NOT NULL,
		key  text COLLATE "C" NOT NULL,
		kind "char" NOT NULL CHECK (kind IN ('v', 'l')),
		PRIMARY KEY (job, key)
	);
	CREATE TABLE mms_batch_values (
		job   text COLLATE "C" NOT NULL,
		key   text COLLATE "C" NOT NULL,
		value bytea NOT NULL,
		PRIMARY KEY (job, key)
	);
	CREATE TABLE mms_batch_records (
		job    text COLLATE "C" NOT NULL,
		key    text COLLATE "C" NOT NULL,
		seq    bigint NOT NULL,
		record bytea NOT NULL,
		PRIMARY KEY (job, key, seq)
	);`,
}

// Migrate creates the store's tables in the connection's current schema
// (the first of its search_path), or brings them to SchemaVersion. It is
// safe to call from several processes at once (an advisory lock orders
// them) and cheap when there is nothing to do; [Open] calls it. It fails
// on tables of a newer version than this module knows.
func Migrate(ctx context.Context, pool *pgxpool.Pool) error {
	// Up to date: nothing to create, so a role without CREATE on the
	// schema gets by.
	var current int
	if err := pool.QueryRow(ctx, `SELECT version FROM mms_batch_schema`).Scan(&current); err == nil && current == len(migrations) {
		return nil
	}
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrationLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS mms_batch_schema (
			one     boolean PRIMARY KEY DEFAULT true CHECK (one),
			version integer NOT NULL
		)`); err != nil {
			return err
		}
		var version int
		err := tx.QueryRow(ctx, `SELECT version FROM mms_batch_schema`).Scan(&version)
		if errors.Is(err, pgx.ErrNoRows) {
			version, err = 0, nil
		}
		if err != nil {
			return err
		}
		if version > len(migrations) {
			return fmt.Errorf("the tables are at version %d, newer than this module's %d: update the module", version, len(migrations))
		}
		for v := version; v < len(migrations); v++ {
			if _, err := tx.Exec(ctx, migrations[v]); err != nil {
				return fmt.Errorf("to version %d: %w", v+1, err)
			}
		}
		if version < len(migrations) {
			_, err = tx.Exec(ctx, `INSERT INTO mms_batch_schema (version) VALUES ($1)
				ON CONFLICT (one) DO UPDATE SET version = excluded.version`, len(migrations))
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("batchstore/postgres: migrating the tables: %w", err)
	}
	return nil
}
