ALTER TABLE "exchange_activities" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Abbreviations become unique whatever the letter case. Partners already stored with one abbreviation in
-- several cases ('ZZ1', 'zz1') keep it on one of them: the live one, else the retired one, else the
-- lowest platId. Each other one gets its platId appended (cut to the 16 characters allowed: 'zz1' of
-- platId 12 becomes 'zz112'), a new version (an editor opened before cannot save the old name back)
-- and an audit entry by this migration, so an operator sees what changed and can pick a better name.
WITH "ranked" AS (
  SELECT "id", "abbreviation",
    row_number() OVER (
      PARTITION BY lower("abbreviation")
      ORDER BY CASE "status" WHEN 'live' THEN 0 WHEN 'retired' THEN 1 ELSE 2 END, "id"
    ) AS "rank"
  FROM "exchanges"
), "renamed" AS (
  UPDATE "exchanges" AS "e"
  SET "abbreviation" = left("r"."abbreviation", 16 - length("e"."id"::text)) || "e"."id"::text,
    "updated_at" = greatest(now(), "e"."updated_at" + interval '1 millisecond')
  FROM "ranked" AS "r"
  WHERE "r"."id" = "e"."id" AND "r"."rank" > 1
  RETURNING "e"."id", "r"."abbreviation" AS "before", "e"."abbreviation" AS "after"
)
INSERT INTO "audit_log" ("at", "actor_id", "actor", "action", "target", "before", "after")
SELECT now(), NULL, 'migration:activity_version_abbreviation_case', 'exchange.update', 'exchange:' || "id",
  jsonb_build_object('abbreviation', "before"), jsonb_build_object('abbreviation', "after")
FROM "renamed";--> statement-breakpoint
DROP INDEX "exchanges_abbreviation_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "exchanges_abbreviation_lower_unique" ON "exchanges" USING btree (lower("abbreviation"));
