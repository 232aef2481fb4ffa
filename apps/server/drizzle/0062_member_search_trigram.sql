-- The console's member search by trigrams (issue 14; docs/decisions.md, "Member search by trigrams"):
-- pg_trgm ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13, so the
-- database's owner creates it without a superuser; PGlite loads it at every open (db/embedded.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- IF NOT EXISTS: on a large member table an operator may build the index beforehand without blocking
-- sign-ups (CREATE INDEX CONCURRENTLY cannot run in the migrations' transaction; docs/operations.md).
CREATE INDEX IF NOT EXISTS "users_email_trgm_idx" ON "users" USING gin ("email" gin_trgm_ops);