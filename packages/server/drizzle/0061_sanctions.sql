-- Sanctions screening (issue 35): the list of sanctioned addresses per network in force (replaced whole by a load of
-- SANCTIONS_LIST_FILE or an admin's upload; every instance reads it here), where it came from, and what screening
-- caught for the operator: sends and address-book entries refused, deposits from a sanctioned address (credited, the
-- account frozen). Addresses are stored as normalised for their network by the API (EVM and bech32 lowercase).
CREATE TABLE "sanctioned_addresses" (
	"network" text NOT NULL,
	"address" text NOT NULL,
	CONSTRAINT "sanctioned_addresses_pkey" PRIMARY KEY("network","address")
);
--> statement-breakpoint
CREATE TABLE "sanctions_hits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"token" text,
	"amount" numeric(38, 18),
	"txid" text,
	"chain_deposit_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sanctions_hits_kind_check" CHECK ("sanctions_hits"."kind" in ('send', 'address-book', 'deposit'))
);
--> statement-breakpoint
CREATE TABLE "sanctions_list_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"source" text NOT NULL,
	"sha256" text NOT NULL,
	"entries" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"loaded_by" uuid,
	"file_sha256" text,
	CONSTRAINT "sanctions_list_state_single_row_check" CHECK ("sanctions_list_state"."id" = 1),
	CONSTRAINT "sanctions_list_state_source_check" CHECK ("sanctions_list_state"."source" in ('file', 'upload'))
);
--> statement-breakpoint
ALTER TABLE "sanctions_hits" ADD CONSTRAINT "sanctions_hits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_list_state" ADD CONSTRAINT "sanctions_list_state_loaded_by_fkey" FOREIGN KEY ("loaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sanctions_hits_created_idx" ON "sanctions_hits" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sanctions_hits_deposit_key" ON "sanctions_hits" USING btree ("chain_deposit_id","address");