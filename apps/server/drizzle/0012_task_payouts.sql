CREATE TABLE "task_payouts" (
	"task_id" text NOT NULL,
	"account" text NOT NULL,
	"user_id" bigint NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	CONSTRAINT "task_payouts_task_id_account_pk" PRIMARY KEY("task_id","account")
);
--> statement-breakpoint
ALTER TABLE "xme_bindings" ADD COLUMN "locked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "task_payouts" ADD CONSTRAINT "task_payouts_task_id_task_definitions_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."task_definitions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_payouts" ADD CONSTRAINT "task_payouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "task_payouts_user_task_unique" ON "task_payouts" USING btree ("user_id","task_id");--> statement-breakpoint
-- Which account earned which task is kept for good (docs/engagement.md): a correction would be a new
-- row, never an edit. Drizzle cannot express triggers, hence this custom part.
CREATE OR REPLACE FUNCTION task_payouts_refuse_change() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'task_payouts is append-only: % refused', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER task_payouts_no_update_delete
  BEFORE UPDATE OR DELETE ON task_payouts
  FOR EACH ROW EXECUTE FUNCTION task_payouts_refuse_change();
--> statement-breakpoint
CREATE TRIGGER task_payouts_no_truncate
  BEFORE TRUNCATE ON task_payouts
  FOR EACH STATEMENT EXECUTE FUNCTION task_payouts_refuse_change();
--> statement-breakpoint
-- Claims paid before this table existed, with the account that earned them: the verified social id,
-- the XME UID, and for the UID task the member's oldest UID bound by the time of the claim.
INSERT INTO "task_payouts" ("task_id", "account", "user_id", "paid_at")
	SELECT td."id", sa."network" || ':' || sa."account_id", pe."user_id", pe."created_at"
	FROM "points_entries" pe
	JOIN "task_definitions" td ON td."id" = pe."reference" AND td."kind" IN ('telegram', 'discord')
	JOIN "social_accounts" sa ON sa."user_id" = pe."user_id" AND sa."network" = td."kind" AND sa."verified_at" IS NOT NULL
	WHERE pe."currency" = 'points' AND pe."reason" = 'task'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "task_payouts" ("task_id", "account", "user_id", "paid_at")
	SELECT td."id", 'xme:' || lower(xb."xme_uid"), pe."user_id", pe."created_at"
	FROM "points_entries" pe
	JOIN "task_definitions" td ON td."id" = pe."reference" AND td."kind" = 'bindXme'
	JOIN "xme_bindings" xb ON xb."user_id" = pe."user_id"
	WHERE pe."currency" = 'points' AND pe."reason" = 'task'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
UPDATE "xme_bindings" xb SET "locked_at" = pe."created_at"
	FROM "points_entries" pe
	JOIN "task_definitions" td ON td."id" = pe."reference" AND td."kind" = 'bindXme'
	WHERE pe."user_id" = xb."user_id" AND pe."currency" = 'points' AND pe."reason" = 'task';
--> statement-breakpoint
INSERT INTO "task_payouts" ("task_id", "account", "user_id", "paid_at")
	SELECT DISTINCT ON (pe."user_id", td."id") td."id", eb."plat_id"::text || ':' || eb."uid", pe."user_id", pe."created_at"
	FROM "points_entries" pe
	JOIN "task_definitions" td ON td."id" = pe."reference" AND td."kind" = 'bindUid'
	JOIN "exchange_bindings" eb ON eb."user_id" = pe."user_id" AND eb."bound_at" <= pe."created_at"
	WHERE pe."currency" = 'points' AND pe."reason" = 'task'
	ORDER BY pe."user_id", td."id", eb."bound_at", eb."id"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The Discord task opens the app like the Telegram one (the same invite as its web link), unless an
-- operator already changed the link or set an app link.
UPDATE "task_definitions" SET "app_link" = 'discord://-/invite/elexcashback', "updated_at" = now()
	WHERE "id" = 'discord' AND "app_link" IS NULL AND "link" = 'https://discord.com/invite/elexcashback';
