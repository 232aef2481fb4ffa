CREATE TABLE "public_statistics" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"exchanges" text NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	"figures" jsonb NOT NULL,
	CONSTRAINT "public_statistics_one_row" CHECK (id = 1)
);
