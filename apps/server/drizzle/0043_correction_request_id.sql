ALTER TABLE "corrections" ADD COLUMN "request_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "corrections_request_unique" ON "corrections" USING btree ("proposed_by","request_id");