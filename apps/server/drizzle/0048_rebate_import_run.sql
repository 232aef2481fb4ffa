-- Records name the figures file's import run that stored them (docs/decisions.md, "Records name their
-- import run"): `bindOwnImport` reads the importing operator from it instead of matching the record's
-- file name and arrival against the operators' runs. Nullable, not indexed and without a foreign key:
-- records of the exchanges' API and records stored before this migration name no run (no backfill: the
-- runs are still matched by name and time for those rows only, read-models/own-imports.ts); the table
-- is only read through a record found by its UID; a foreign key's check would cost the million-line
-- import about 7 µs a row, and the import writes its run row first in its own transaction.
ALTER TABLE "rebates" ADD COLUMN "import_run_id" bigint;