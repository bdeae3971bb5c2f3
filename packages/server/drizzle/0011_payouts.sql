-- Withdrawals to the chain: one payout per approved withdrawal on a network with a signer. The signed transaction and
-- its txid are stored before it is broadcast, so a retry, a restart or a second instance rebroadcasts the same bytes.
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL REFERENCES "transactions"("id"),
	"network" text NOT NULL,
	"address" text NOT NULL,
	"amount_base" numeric(78, 0) NOT NULL,
	"state" text DEFAULT 'approved' NOT NULL,
	"raw_tx" text,
	"txid" text,
	"fee_base" numeric(78, 0),
	"confirmations" integer DEFAULT 0 NOT NULL,
	"required_confirmations" integer NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"signed_at" timestamp with time zone,
	"broadcast_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_state_check" CHECK ("state" IN ('approved', 'awaiting_funds', 'signed', 'broadcast', 'confirming', 'completed', 'failed')),
	CONSTRAINT "payouts_amount_check" CHECK ("amount_base" > 0),
	-- Signed means the bytes and their txid are stored.
	CONSTRAINT "payouts_signed_check" CHECK ("state" IN ('approved', 'awaiting_funds', 'failed') OR ("raw_tx" IS NOT NULL AND "txid" IS NOT NULL))
);
--> statement-breakpoint
-- One payment per withdrawal, whatever the number of instances or restarts.
CREATE UNIQUE INDEX "payouts_transaction_key" ON "payouts" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_network_txid_key" ON "payouts" USING btree ("network","txid") WHERE "txid" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "payouts_open_idx" ON "payouts" USING btree ("network","state") WHERE "state" NOT IN ('completed', 'failed');--> statement-breakpoint
-- Since when each network pays out by itself: withdrawals approved before (settled by hand) are never paid again.
CREATE TABLE "payout_networks" (
	"network" text PRIMARY KEY NOT NULL,
	"enabled_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A withdrawal whose payment is signed cannot leave approved nor be voided: its coins are (or may be) on the chain.
CREATE FUNCTION "payouts_guard_transaction"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (NEW.status IS DISTINCT FROM OLD.status OR NEW.voided_at IS DISTINCT FROM OLD.voided_at)
		AND EXISTS (SELECT 1 FROM payouts p WHERE p.transaction_id = OLD.id AND p.state NOT IN ('approved', 'awaiting_funds', 'failed')) THEN
		RAISE EXCEPTION 'withdrawal % is being paid on chain', OLD.id USING ERRCODE = 'CP011';
	END IF;
	RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "payouts_guard_transaction" BEFORE UPDATE OF "status", "voided_at" ON "transactions" FOR EACH ROW EXECUTE FUNCTION "payouts_guard_transaction"();
--> statement-breakpoint
-- EVM family: the next nonce per sending address, reserved in the same transaction that stores the signed payment.
CREATE TABLE "evm_nonces" (
	"network" text NOT NULL,
	"address" text NOT NULL,
	"next_nonce" bigint NOT NULL,
	CONSTRAINT "evm_nonces_pkey" PRIMARY KEY("network","address")
);
