-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "payouts" family: the current definition of each function (and composite type) first created by
--   drizzle/0011_payouts.sql
--   drizzle/0019_payout_fees.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0011_payouts.sql:
--
-- Withdrawals to the chain: one payout per approved withdrawal on a network with a signer. The signed transaction and
-- its txid are stored before it is broadcast, so a retry, a restart or a second instance rebroadcasts the same bytes.

-- From the header of drizzle/0019_payout_fees.sql:
--
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

-- ---------------------------------------------------------------------------------------------------------------------
-- function payouts_guard_transaction()
-- Created in drizzle/0011_payouts.sql.
-- Changed in drizzle/0020_cold_payouts.sql, drizzle/0022_signer_signatures.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A withdrawal whose payment is signed cannot leave approved nor be voided: its coins are (or may be) on the chain.
--
-- Changed in drizzle/0020_cold_payouts.sql:
-- The guard of 0011, now also for cold payouts: a withdrawal waiting for a cold signature may still be rejected or
-- voided until its unsigned transaction is handed out; from then on it may be signed offline and broadcast, so, like a
-- signed one, its status can no longer change.
--
-- Changed in drizzle/0022_signer_signatures.sql:
-- A withdrawal the signer signed a payment for cannot leave approved nor be voided either (as one whose payout row is
-- signed, 0011, or whose cold payment is prepared, 0020 — that rule kept as it is): the bytes left the signer, and an EVM payment holds a reserved nonce that must be sent, or every later
-- payment from the hot address would wait behind the gap. The API's next run gets those very bytes and sends them.
CREATE OR REPLACE FUNCTION public.payouts_guard_transaction()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
	IF (NEW.status IS DISTINCT FROM OLD.status OR NEW.voided_at IS DISTINCT FROM OLD.voided_at)
		AND (
			EXISTS (
				SELECT 1 FROM payouts p WHERE p.transaction_id = OLD.id
					AND p.state NOT IN ('approved', 'awaiting_funds', 'failed')
					AND NOT (p.state = 'awaiting_cold_signature' AND p.unsigned_tx IS NULL)
			)
			OR EXISTS (SELECT 1 FROM signer_signatures s WHERE s.kind = 'payout' AND s.subject_id = OLD.id)
		) THEN
		RAISE EXCEPTION 'withdrawal % is being paid on chain', OLD.id USING ERRCODE = 'CP011';
	END IF;
	RETURN NEW;
END;
$function$;

CREATE TRIGGER payouts_guard_transaction BEFORE UPDATE OF status, voided_at ON public.transactions FOR EACH ROW EXECUTE FUNCTION payouts_guard_transaction();

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_complete_payout(uuid,text,integer,numeric,text,integer,jsonb,integer,jsonb)
-- Created in drizzle/0019_payout_fees.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
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
CREATE OR REPLACE FUNCTION public.cp_complete_payout(p_payout uuid, p_txid text, p_confirmations integer, p_fee_base numeric, p_fee_token text, p_decimals integer, p_payout_details jsonb, p_shard integer, p_records jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
$function$;
