CREATE TABLE "promotion_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by_id" bigint,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"max_uses" integer,
	"signups" integer DEFAULT 0 NOT NULL,
	"disabled_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "promotion_codes_code_upper_check" CHECK ("promotion_codes"."code" = upper("promotion_codes"."code")),
	CONSTRAINT "promotion_codes_max_uses_check" CHECK ("promotion_codes"."max_uses" is null or "promotion_codes"."max_uses" > 0),
	CONSTRAINT "promotion_codes_signups_check" CHECK ("promotion_codes"."signups" >= 0 and ("promotion_codes"."max_uses" is null or "promotion_codes"."signups" <= "promotion_codes"."max_uses"))
);
--> statement-breakpoint
ALTER TABLE "promotion_codes" ADD CONSTRAINT "promotion_codes_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_codes_code_unique" ON "promotion_codes" USING btree ("code");--> statement-breakpoint
-- Issue 11: any encr used to earn the sign-up bonus. The codes accounts already signed up with are
-- recorded, with their sign-ups, but disabled: an operator re-enables the real campaigns in the console
-- and the invented ones stay refused.
INSERT INTO "promotion_codes" ("code", "note", "created_by", "created_at", "signups", "disabled_at", "updated_at")
SELECT upper("signup_encr"), 'Used before promotion codes were managed', 'migration', min("created_at"), count(*)::integer, now(), now()
FROM "users"
WHERE "signup_encr" IS NOT NULL
GROUP BY upper("signup_encr");
