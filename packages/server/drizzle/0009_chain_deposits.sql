-- Deposits from the chain: a deposit address per customer and network, the watchers' cursors and recent blocks, and
-- the deposits seen on chain (keyed by network, txid and output/log index).
CREATE TABLE "deposit_addresses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"network" text NOT NULL,
	"address" text NOT NULL,
	"match_key" text NOT NULL,
	"derivation_index" integer NOT NULL,
	"key_fingerprint" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_addresses_index_check" CHECK ("derivation_index" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_network_address_key" ON "deposit_addresses" USING btree ("network","address");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_network_match_key" ON "deposit_addresses" USING btree ("network","match_key");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_user_network_key" ON "deposit_addresses" USING btree ("user_id","network");--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_addresses_derivation_key" ON "deposit_addresses" USING btree ("network","key_fingerprint","derivation_index");--> statement-breakpoint
CREATE TABLE "deposit_address_counters" (
	"scope" text PRIMARY KEY NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"network" text PRIMARY KEY NOT NULL,
	"height" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"node_height" bigint,
	"node_block_at" timestamp with time zone,
	"last_poll_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_blocks" (
	"network" text NOT NULL,
	"height" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"block_time" timestamp with time zone,
	CONSTRAINT "chain_blocks_pkey" PRIMARY KEY("network","height")
);
--> statement-breakpoint
CREATE TABLE "chain_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"txid" text NOT NULL,
	"output_index" integer NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"token" text NOT NULL,
	"address" text NOT NULL,
	"amount_base" numeric(78, 0) NOT NULL,
	"amount" numeric(38, 18) NOT NULL,
	"block_height" bigint,
	"block_hash" text,
	"confirmations" integer DEFAULT 0 NOT NULL,
	"required_confirmations" integer NOT NULL,
	"state" text NOT NULL,
	"review" text,
	"transaction_id" uuid REFERENCES "transactions"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"credited_at" timestamp with time zone,
	CONSTRAINT "chain_deposits_state_check" CHECK ("state" in ('seen', 'confirming', 'credited', 'dropped', 'below_minimum')),
	CONSTRAINT "chain_deposits_review_check" CHECK ("review" is null or "review" in ('orphaned_after_credit')),
	CONSTRAINT "chain_deposits_amount_check" CHECK ("amount_base" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "chain_deposits_output_key" ON "chain_deposits" USING btree ("network","txid","output_index");--> statement-breakpoint
CREATE INDEX "chain_deposits_open_idx" ON "chain_deposits" USING btree ("network","state") WHERE "state" in ('seen', 'confirming');--> statement-breakpoint
CREATE INDEX "chain_deposits_block_idx" ON "chain_deposits" USING btree ("network","block_height");--> statement-breakpoint
CREATE INDEX "chain_deposits_user_idx" ON "chain_deposits" USING btree ("user_id","created_at");--> statement-breakpoint
-- EVM tokens: the token contract on a network (ERC-20 Transfer logs are read for it) and its decimals read from it.
ALTER TABLE "token_networks" ADD COLUMN "contract_address" text;--> statement-breakpoint
ALTER TABLE "token_networks" ADD COLUMN "contract_decimals" integer;
