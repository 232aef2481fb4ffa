-- Records name the figures file's import run that stored them (docs/decisions.md, "Records name their
-- import run"): `bindOwnImport` reads the importing operator from it instead of matching the record's
-- file name and arrival against the operators' runs. Nullable and not indexed: records of the exchanges'
-- API and records stored before this migration name no run (no backfill: the runs are still matched by
-- name and time for those rows only, read-models/own-imports.ts), and the table is only read through a
-- record found by its UID.
ALTER TABLE "rebates" ADD COLUMN "import_run_id" bigint;--> statement-breakpoint
ALTER TABLE "rebates" ADD CONSTRAINT "rebates_import_run_id_import_runs_id_fk" FOREIGN KEY ("import_run_id") REFERENCES "public"."import_runs"("id") ON DELETE no action ON UPDATE no action;