CREATE TABLE "invitations" (
	"friend_id" bigint PRIMARY KEY NOT NULL,
	"inviter_id" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_accounts" (
	"user_id" bigint NOT NULL,
	"network" text NOT NULL,
	"account_id" text NOT NULL,
	"verified_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "social_accounts_user_id_network_pk" PRIMARY KEY("user_id","network"),
	CONSTRAINT "social_accounts_network_check" CHECK ("social_accounts"."network" in ('telegram', 'discord'))
);
--> statement-breakpoint
CREATE TABLE "task_definitions" (
	"id" text PRIMARY KEY NOT NULL,
	"task_group" text NOT NULL,
	"kind" text NOT NULL,
	"points" integer NOT NULL,
	"threshold_micro" bigint,
	"link" text,
	"app_link" text,
	"sort_order" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "task_definitions_points_check" CHECK ("task_definitions"."points" between 0 and 1000000),
	CONSTRAINT "task_definitions_kind_check" CHECK (("task_definitions"."task_group" = 'social' and "task_definitions"."kind" in ('telegram', 'discord', 'x'))
        or ("task_definitions"."task_group" = 'binding' and "task_definitions"."kind" in ('bindUid', 'bindXme'))
        or ("task_definitions"."task_group" = 'trade' and "task_definitions"."kind" = 'tradingVolume')),
	CONSTRAINT "task_definitions_threshold_check" CHECK (("task_definitions"."kind" = 'tradingVolume') = ("task_definitions"."threshold_micro" is not null and "task_definitions"."threshold_micro" > 0))
);
--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_friend_id_users_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_accounts" ADD CONSTRAINT "social_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitations_inviter_idx" ON "invitations" USING btree ("inviter_id","created_at","friend_id");--> statement-breakpoint
CREATE UNIQUE INDEX "social_accounts_verified_unique" ON "social_accounts" USING btree ("network","account_id") WHERE "social_accounts"."verified_at" is not null;--> statement-breakpoint
CREATE INDEX "social_accounts_account_idx" ON "social_accounts" USING btree ("network","account_id");--> statement-breakpoint
-- The default tasks (docs/engagement.md); operators change points, thresholds and links later.
INSERT INTO "task_definitions" ("id", "task_group", "kind", "points", "threshold_micro", "link", "app_link", "sort_order", "enabled", "updated_at") VALUES
	('telegram', 'social', 'telegram', 50, NULL, 'https://t.me/elexcashback', 'tg://resolve?domain=elexcashback', 10, true, now()),
	('discord', 'social', 'discord', 50, NULL, 'https://discord.com/invite/elexcashback', NULL, 20, true, now()),
	('x', 'social', 'x', 0, NULL, 'https://x.com/elexcashback', NULL, 30, true, now()),
	('bindUid', 'binding', 'bindUid', 100, NULL, NULL, NULL, 40, true, now()),
	('bindXme', 'binding', 'bindXme', 50, NULL, NULL, NULL, 50, true, now()),
	('tradeTier1', 'trade', 'tradingVolume', 100, 10000000000, NULL, NULL, 60, true, now()),
	('tradeTier2', 'trade', 'tradingVolume', 300, 100000000000, NULL, NULL, 70, true, now()),
	('tradeTier3', 'trade', 'tradingVolume', 1000, 1000000000000, NULL, NULL, 80, true, now())
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Members who registered with an invite code before this table existed.
INSERT INTO "invitations" ("friend_id", "inviter_id", "created_at")
	SELECT "id", "inviter_id", "created_at" FROM "users" WHERE "inviter_id" IS NOT NULL
ON CONFLICT DO NOTHING;
