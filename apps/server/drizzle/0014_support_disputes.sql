CREATE TABLE "support_images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" bigint NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "support_images_type_check" CHECK ("support_images"."content_type" in ('image/png', 'image/jpeg', 'image/webp'))
);
--> statement-breakpoint
CREATE TABLE "support_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" bigint NOT NULL,
	"author" text NOT NULL,
	"operator_id" bigint,
	"text" text NOT NULL,
	"image_id" bigint,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "support_messages_author_check" CHECK (("support_messages"."author" = 'member' and "support_messages"."operator_id" is null)
        or ("support_messages"."author" = 'operator' and "support_messages"."operator_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "support_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"plat_id" integer,
	"uid" text,
	"address" text,
	"status" text NOT NULL,
	"resolution" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" bigint,
	CONSTRAINT "support_requests_status_check" CHECK ("support_requests"."status" in ('open', 'answered', 'closed')),
	CONSTRAINT "support_requests_kind_check" CHECK ("support_requests"."kind" in ('uidBoundByOther', 'ownership', 'missingCashback', 'withdrawal', 'account', 'other')),
	CONSTRAINT "support_requests_closed_check" CHECK (("support_requests"."status" = 'closed') = ("support_requests"."closed_at" is not null and "support_requests"."resolution" is not null))
);
--> statement-breakpoint
ALTER TABLE "exchange_bindings" ADD COLUMN "ownership_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exchange_bindings" ADD COLUMN "ownership_verified_by" bigint;--> statement-breakpoint
ALTER TABLE "support_images" ADD CONSTRAINT "support_images_request_id_support_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."support_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_request_id_support_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."support_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_operator_id_users_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_messages" ADD CONSTRAINT "support_messages_image_id_support_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."support_images"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_plat_id_exchanges_id_fk" FOREIGN KEY ("plat_id") REFERENCES "public"."exchanges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_requests" ADD CONSTRAINT "support_requests_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "support_messages_request_idx" ON "support_messages" USING btree ("request_id","id");--> statement-breakpoint
CREATE INDEX "support_requests_user_idx" ON "support_requests" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "support_requests_status_idx" ON "support_requests" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "support_requests_open_disputes_idx" ON "support_requests" USING btree ("plat_id","uid") WHERE "support_requests"."kind" = 'uidBoundByOther' and "support_requests"."status" <> 'closed';--> statement-breakpoint
ALTER TABLE "exchange_bindings" ADD CONSTRAINT "exchange_bindings_ownership_verified_by_users_id_fk" FOREIGN KEY ("ownership_verified_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;