-- Hot and cold (issue 25): a payout above the network's hot limits, or above what the hot wallet holds, waits as
-- awaiting_cold_signature. An admin downloads its unsigned transaction (prepared once and kept: the same PSBT, or the
-- same EIP-1559 transaction with its reserved nonce, on every download), signs it offline and uploads it; the app
-- stores the signed bytes and txid (state signed) only once they pay exactly the approved output, then the payout
-- follows the hot path's lifecycle (broadcast, confirming, completed).
ALTER TABLE "payouts" ADD COLUMN "cold_reason" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "unsigned_tx" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "unsigned_fee_base" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "prepared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_state_check";--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_state_check"
	CHECK ("state" IN ('approved', 'awaiting_funds', 'awaiting_cold_signature', 'signed', 'broadcast', 'confirming', 'completed', 'failed'));--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_signed_check";--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_signed_check"
	CHECK ("state" IN ('approved', 'awaiting_funds', 'awaiting_cold_signature', 'failed') OR ("raw_tx" IS NOT NULL AND "txid" IS NOT NULL));--> statement-breakpoint
-- A cold payout says why it is cold (shown in the back office); a prepared one keeps what was handed out.
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_cold_check"
	CHECK (("state" <> 'awaiting_cold_signature' OR "cold_reason" IS NOT NULL) AND ("unsigned_tx" IS NULL OR "cold_reason" IS NOT NULL));--> statement-breakpoint
-- What the hot signer paid over the last day (the daily hot limit).
CREATE INDEX "payouts_hot_signed_idx" ON "payouts" USING btree ("network", "signed_at") WHERE "cold_reason" IS NULL;--> statement-breakpoint
-- The guard of 0011, now also for cold payouts: a withdrawal waiting for a cold signature may still be rejected or
-- voided until its unsigned transaction is handed out; from then on it may be signed offline and broadcast, so, like a
-- signed one, its status can no longer change.
CREATE OR REPLACE FUNCTION "payouts_guard_transaction"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (NEW.status IS DISTINCT FROM OLD.status OR NEW.voided_at IS DISTINCT FROM OLD.voided_at)
		AND EXISTS (
			SELECT 1 FROM payouts p WHERE p.transaction_id = OLD.id
				AND p.state NOT IN ('approved', 'awaiting_funds', 'failed')
				AND NOT (p.state = 'awaiting_cold_signature' AND p.unsigned_tx IS NULL)
		) THEN
		RAISE EXCEPTION 'withdrawal % is being paid on chain', OLD.id USING ERRCODE = 'CP011';
	END IF;
	RETURN NEW;
END;
$$;
