ALTER TABLE "support_images" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "support_images" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "support_images_held_idx" ON "support_images" USING btree ("request_id") WHERE "support_images"."erased_at" is null;--> statement-breakpoint
ALTER TABLE "support_images" ADD CONSTRAINT "support_images_erased_check" CHECK (("support_images"."bytes" is null) = ("support_images"."erased_at" is not null));