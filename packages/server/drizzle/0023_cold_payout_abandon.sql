-- A cold payout can be abandoned (issue 25, "Hot and cold"): an admin may fail a withdrawal that waits for its cold
-- signature, the held amount returned as for a payout the hot signer refused. Nothing signed is stored for it (a signed
-- upload moves it to signed first), and the app gave back what its prepared transaction reserved (its inputs or nonce)
-- only after checking none of it is on the chain. So cp_fail_payout, unchanged otherwise (0016), also takes
-- awaiting_cold_signature; a payout signed since (hot or cold) may be on the chain and is still never failed.
CREATE OR REPLACE FUNCTION cp_fail_payout(p_payout uuid, p_reason text, p_payout_details jsonb, p_shard int, p_records jsonb) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_payout payouts%ROWTYPE;
  v_withdrawal transactions%ROWTYPE;
BEGIN
  SELECT * INTO v_payout FROM payouts WHERE id = p_payout FOR UPDATE;
  IF v_payout.id IS NULL OR v_payout.state NOT IN ('approved', 'awaiting_funds', 'awaiting_cold_signature') THEN
    RETURN false;
  END IF;
  SELECT * INTO v_withdrawal FROM transactions WHERE id = v_payout.transaction_id FOR UPDATE;

  UPDATE payouts SET state = 'failed', last_error = p_reason, attempts = attempts + 1, updated_at = now() WHERE id = p_payout;
  UPDATE transactions SET details = coalesce(details, '{}'::jsonb) || p_payout_details WHERE id = v_payout.transaction_id;
  IF v_withdrawal.id IS NULL OR v_withdrawal.status <> 'approved' OR v_withdrawal.voided_at IS NOT NULL THEN
    RETURN false;
  END IF;

  PERFORM cp_post('payout_failed_reversal', v_withdrawal.id, left('payout failed: ' || p_reason, 500), NULL,
    cp_transfer(cp_platform_account('withdrawals_settled', v_withdrawal.token, p_shard), cp_customer_account(v_withdrawal.user_id, v_withdrawal.token), v_withdrawal.coin_amount));
  UPDATE transactions SET status = 'rejected', updated_at = now() WHERE id = v_withdrawal.id;
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$$;
