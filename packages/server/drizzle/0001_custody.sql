CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "password_reset_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"window_ends_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stored_images" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "address_book" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"label" text NOT NULL,
	"token" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"memo" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"usable_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_networks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_id" uuid NOT NULL,
	"network" text NOT NULL,
	"address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawal_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"allowlist_enabled" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "two_factor" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret_encrypted" text NOT NULL,
	"enabled_at" timestamp with time zone,
	"last_used_step" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_points" (
	"coin_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	CONSTRAINT "price_points_coin_id_at_pk" PRIMARY KEY("coin_id","at")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_body" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "address_book" ADD CONSTRAINT "address_book_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_networks" ADD CONSTRAINT "token_networks_token_id_supported_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."supported_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawal_settings" ADD CONSTRAINT "withdrawal_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor" ADD CONSTRAINT "two_factor_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_points" ADD CONSTRAINT "price_points_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox" USING btree ("next_attempt_at") WHERE sent_at is null;--> statement-breakpoint
CREATE INDEX "mail_outbox_sent_idx" ON "mail_outbox" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "rate_limits_window_ends_idx" ON "rate_limits" USING btree ("window_ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_entry_key" ON "address_book" USING btree ("user_id","token","network","address",coalesce("memo", ''));--> statement-breakpoint
CREATE INDEX "address_book_user_idx" ON "address_book" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "token_networks_token_network_key" ON "token_networks" USING btree ("token_id","network");--> statement-breakpoint
CREATE INDEX "admin_approvals_status_created_idx" ON "admin_approvals" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "recovery_codes_user_id_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "price_points_at_idx" ON "price_points" USING btree ("at");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "token_version";--> statement-breakpoint
-- backfill: 20-i8-networks
-- Backfill: every supported token gets its network row (the first row shares the token's id, so existing
-- `_id`s of get-tokens stay valid). Native coins by coin id; tether (and other tokens) by the address shape:
-- a TRON address (T…) means tron, anything else was validated as an EVM address (ethereum).
INSERT INTO "token_networks" ("id", "token_id", "network", "address", "created_at", "updated_at")
SELECT st."id", st."id",
  CASE st."coin_id"
    WHEN 'bitcoin' THEN 'bitcoin'
    WHEN 'ethereum' THEN 'ethereum'
    WHEN 'solana' THEN 'solana'
    WHEN 'ripple' THEN 'xrp'
    WHEN 'litecoin' THEN 'litecoin'
    WHEN 'dogecoin' THEN 'dogecoin'
    WHEN 'cardano' THEN 'cardano'
    WHEN 'tron' THEN 'tron'
    WHEN 'stellar' THEN 'stellar'
    WHEN 'binancecoin' THEN 'bsc'
    WHEN 'avalanche-2' THEN 'avalanche'
    WHEN 'bitcoin-cash' THEN 'bitcoin-cash'
    WHEN 'matic-network' THEN 'polygon'
    WHEN 'polygon-ecosystem-token' THEN 'polygon'
    WHEN 'arbitrum' THEN 'arbitrum'
    ELSE CASE WHEN st."address" ~ '^T[1-9A-HJ-NP-Za-km-z]{33}$' THEN 'tron' ELSE 'ethereum' END
  END,
  st."address", st."created_at", st."updated_at"
FROM "supported_tokens" st
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Backfill: transactions record a network id. Old withdrawals said ERC-20 / TRC-20; old deposits stored the token id.
UPDATE "transactions" t SET "network" = CASE
    WHEN t."network" = 'TRC-20' THEN 'tron'
    WHEN t."network" = 'ERC-20' THEN 'ethereum'
    WHEN t."token" = 'tether' AND t."address" ~ '^T[1-9A-HJ-NP-Za-km-z]{33}$' THEN 'tron'
    WHEN t."token" = 'tether' AND t."address" ~* '^0x[0-9a-f]{40}$' THEN 'ethereum'
    ELSE coalesce(
      (SELECT tn."network" FROM "token_networks" tn JOIN "supported_tokens" st ON st."id" = tn."token_id"
        WHERE st."coin_id" = t."token" ORDER BY (st."deleted_at" IS NULL) DESC, st."created_at" DESC, tn."created_at", tn."id" LIMIT 1),
      t."network")
  END
WHERE t."network" IS NOT NULL
  AND t."network" NOT IN ('bitcoin', 'ethereum', 'bsc', 'polygon', 'arbitrum', 'avalanche', 'tron', 'solana', 'xrp', 'litecoin', 'dogecoin', 'cardano', 'stellar', 'bitcoin-cash');
--> statement-breakpoint
-- backfill: 30-i12-backoffice
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
--> statement-breakpoint
-- backfill: 40-i13-cx
-- Every stored price becomes the first point of its coin's history (custom tokens: their current manual price).
INSERT INTO "price_points" ("coin_id", "at", "price") SELECT "id", "last_updated", "current_price" FROM "coins" ON CONFLICT DO NOTHING;
