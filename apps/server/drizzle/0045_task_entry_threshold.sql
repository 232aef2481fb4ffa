-- A trade task's points entry keeps the threshold it was claimed under (found in red-team review,
-- 2026-11-29): the points history labelled it with the task's live threshold, which an operator may
-- change, so raising a tier from 10,000 to 50,000 USDT made an old entry read "traded 50,000 USDT".
ALTER TABLE "points_entries" ADD COLUMN "threshold_micro" bigint;--> statement-breakpoint
-- Entries booked before this migration: the threshold they were claimed under was never recorded, so
-- they get the tier's threshold as it stands now (the best known value; for a tier an operator changed
-- since a claim it is not the one claimed under). From here on they no longer follow the definition.
-- The ledger is append-only; its trigger is off for this one fill only.
ALTER TABLE "points_entries" DISABLE TRIGGER "points_entries_no_update_delete";--> statement-breakpoint
UPDATE "points_entries" e SET "threshold_micro" = t."threshold_micro"
  FROM "task_definitions" t
  WHERE e."reason" = 'task' AND e."reference" = t."id" AND t."kind" = 'tradingVolume';--> statement-breakpoint
ALTER TABLE "points_entries" ENABLE TRIGGER "points_entries_no_update_delete";--> statement-breakpoint
ALTER TABLE "points_entries" ADD CONSTRAINT "points_entries_threshold_check" CHECK ("points_entries"."threshold_micro" is null or ("points_entries"."reason" = 'task' and "points_entries"."threshold_micro" > 0));
