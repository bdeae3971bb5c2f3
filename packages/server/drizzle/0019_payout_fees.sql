-- Network fees of payouts (issue 25): who pays them, how they are booked, and stuck payouts bumped.
--
-- Who pays: the customer. A withdrawal's amount includes the network fee: the signer fixes the fee when it first signs
-- the payment (UTXO: the node funds it with the fee subtracted from the payment output; EVM: gas × (base fee + tip) of
-- the fee quote) and the recipient gets the amount minus that fee (charged_fee_base). The Send confirm step shows the
-- estimate of it and what the recipient would get.
--
-- The platform absorbs or keeps the difference: what the chain finally takes (fee_base once completed) differs from the
-- fee charged when a stuck payout is bumped (the extra comes out of the hot wallet's change, never the recipient's
-- output) or, on the EVM chains, when the block's base fee differs from the quote. That difference is the platform's.
-- The ledger says where every coin went (cp_complete_payout): withdrawals_settled keeps what reached recipients,
-- network_fees what miners took, network_fee_margin the platform's gain (positive) or cost (negative) on fees.
--
-- A bump replaces the payment by another one (same inputs or same nonce, same recipient output, a higher fee); the
-- version replaced is kept in payout_replaced_txs. Whichever version confirms completes the payout, once.
ALTER TABLE "payouts" ADD COLUMN "charged_fee_base" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "bumps" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "bumped_at" timestamp with time zone;--> statement-breakpoint
-- The recipient always gets something: the fee charged is less than the amount.
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_charged_fee_check" CHECK ("charged_fee_base" >= 0 AND "charged_fee_base" < "amount_base");--> statement-breakpoint
-- The versions of a payout's payment that a fee bump replaced (or that lost to a replaced one which confirmed instead),
-- newest last: each still spends the same inputs (UTXO) or nonce (EVM), so at most one of them is ever mined.
CREATE TABLE "payout_replaced_txs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payout_id" uuid NOT NULL REFERENCES "payouts"("id") ON DELETE CASCADE,
	"network" text NOT NULL,
	"txid" text NOT NULL,
	"raw_tx" text NOT NULL,
	"fee_base" numeric(78, 0),
	"signed_at" timestamp with time zone,
	"replaced_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- replaced: a bump replaced it; rejected: the node refused the bump, the version before stayed; lost: a version
	-- replaced earlier confirmed instead of it.
	"reason" text NOT NULL,
	CONSTRAINT "payout_replaced_txs_reason_check" CHECK ("reason" IN ('replaced', 'rejected', 'lost'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payout_replaced_txs_network_txid_key" ON "payout_replaced_txs" USING btree ("network","txid");--> statement-breakpoint
CREATE INDEX "payout_replaced_txs_payout_idx" ON "payout_replaced_txs" USING btree ("payout_id");--> statement-breakpoint

-- A payout whose payment reached its confirmations completes, once, and its network fee is booked. Under its row lock
-- the payout must still be broadcast or confirming, p_txid must be its payment (the version that confirmed: the caller
-- made it the payout's own first) and p_confirmations at least its required ones; otherwise nothing is written and it
-- returns false. Then:
--   the payout is completed with the actual fee (p_fee_base, in the network's smallest unit of p_fee_token, the
--   network's own coin) and its fields the customer sees (p_payout_details, merged into the withdrawal's details);
--   one entry 'payout_network_fee' moves the fee charged to the customer (charged_fee_base, part of the settled amount)
--   withdrawals_settled → network_fees, and the difference to the actual fee network_fee_margin → network_fees (the
--   platform pays what the chain took beyond the charge, and keeps what it took less); no entry when both are zero;
--   the notification, mail and audit rows (p_records) are written; returns true.
-- A fee charged is only ever in the withdrawal's own token: a token payout (gas paid in the network's coin) charges
-- nothing and the platform pays its whole fee.
CREATE FUNCTION cp_complete_payout(p_payout uuid, p_txid text, p_confirmations int, p_fee_base numeric, p_fee_token text, p_decimals int, p_payout_details jsonb, p_shard int, p_records jsonb) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_payout payouts%ROWTYPE;
  v_withdrawal transactions%ROWTYPE;
  v_unit numeric := 10::numeric ^ p_decimals;
  v_charged numeric;
  v_actual numeric;
BEGIN
  SELECT * INTO v_payout FROM payouts WHERE id = p_payout FOR UPDATE;
  IF v_payout.id IS NULL OR v_payout.state NOT IN ('broadcast', 'confirming') OR v_payout.txid IS DISTINCT FROM p_txid
    OR p_confirmations < v_payout.required_confirmations THEN
    RETURN false;
  END IF;
  SELECT * INTO v_withdrawal FROM transactions WHERE id = v_payout.transaction_id FOR UPDATE;
  IF p_fee_base IS NULL OR p_fee_base < 0 THEN
    RAISE EXCEPTION 'payout %: the fee paid must be known to complete it', p_payout;
  END IF;
  IF v_payout.charged_fee_base > 0 AND v_withdrawal.token IS DISTINCT FROM p_fee_token THEN
    RAISE EXCEPTION 'payout %: a fee is charged in % but paid in %', p_payout, v_withdrawal.token, p_fee_token;
  END IF;

  v_charged := v_payout.charged_fee_base / v_unit;
  v_actual := p_fee_base / v_unit;
  UPDATE payouts SET state = 'completed', confirmations = p_confirmations, fee_base = p_fee_base, last_error = NULL,
    completed_at = now(), updated_at = now()
  WHERE id = p_payout;
  UPDATE transactions SET details = coalesce(details, '{}'::jsonb) || p_payout_details WHERE id = v_payout.transaction_id;
  PERFORM cp_post('payout_network_fee', v_withdrawal.id, 'network fee of ' || p_txid, NULL,
    cp_transfer(cp_platform_account('withdrawals_settled', v_withdrawal.token, p_shard), cp_platform_account('network_fees', p_fee_token, p_shard), v_charged)
    || cp_transfer(cp_platform_account('network_fee_margin', p_fee_token, p_shard), cp_platform_account('network_fees', p_fee_token, p_shard), v_actual - v_charged));
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$$;
