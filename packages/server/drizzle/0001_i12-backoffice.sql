CREATE TABLE "admin_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" uuid NOT NULL,
	"user_id" uuid,
	"transaction_id" uuid,
	"payload" jsonb NOT NULL,
	"usd_value" numeric(38, 8) NOT NULL,
	"summary" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"decision_reason" text,
	"last_error" text,
	CONSTRAINT "admin_approvals_status_check" CHECK ("admin_approvals"."status" in ('pending', 'approved', 'rejected')),
	CONSTRAINT "admin_approvals_action_check" CHECK ("admin_approvals"."action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx')),
	CONSTRAINT "admin_approvals_decided_check" CHECK (("admin_approvals"."status" = 'pending') = ("admin_approvals"."decided_by" is null))
);
--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_approvals_status_created_idx" ON "admin_approvals" USING btree ("status","created_at");--> statement-breakpoint
-- Back-office search (issue 12): admins find customers by part of the email or name. Where pg_trgm can be created
-- (PostgreSQL with contrib), a trigram GIN index serves substring matches; otherwise (PGlite without the extension)
-- the search falls back to a scan, and prefix matches on the email still use the btree below.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
  CREATE INDEX IF NOT EXISTS users_search_trgm_idx ON users USING gin ((lower(name) || ' ' || email_normalized) gin_trgm_ops);
EXCEPTION WHEN others THEN
  RAISE NOTICE 'pg_trgm is not available: user search runs without a trigram index';
END
$$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_email_prefix_idx ON users (email_normalized text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS transactions_tx_hash_idx ON transactions ((lower(details ->> 'txHash'))) WHERE details ? 'txHash';
