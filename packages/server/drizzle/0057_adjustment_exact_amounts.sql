-- Issue 31, item 14: the adjustment's answer carries coinAmountExact (every decimal the ledger holds) beside the
-- display coinAmount, for the balance after it and the transaction; nothing else changes.
-- Raises what 0015 raised: CPU01 (customer not found), CPB01 (the balance a four-eyes approval was decided from changed).
-- ---------------------------------------------------------------------------------------------------------------------
-- An adjustment: p_mode 'add' moves p_quantity to the customer (a negative one from them); 'set' moves what takes the
-- balance to p_quantity. It moves with the platform's adjustments account and writes the adjustment row, the customer's
-- notification and the audit entry with the balance before and after. When the balance already is the one asked for,
-- nothing moves and nothing is written but the answer (its transaction null).
--
-- p_expected_balance: the balance a four-eyes approval was decided from (NULL: none bound); CPB01 when it changed.
-- p_notice, p_audit: the notification and audit rows (see cp_write_records) without what is decided here — the
-- notification's message, the balance in the audit's before and after.
-- p_answer: the response as far as it is known ({message, balance, transaction}); its balance and the transaction's
-- user, direction, coinAmount, coinAmountExact and amount are filled in here, and the answer is what an Idempotency-Key replays.
-- Returns {answer (the response's JSON text), moved, message (the notification's, NULL when nothing moved)}.
CREATE OR REPLACE FUNCTION public.cp_adjust_balance(p_transaction uuid, p_user uuid, p_token text, p_mode text, p_quantity numeric, p_price numeric, p_requested_usd numeric, p_reason text, p_expected_balance numeric, p_symbol text, p_decimals integer, p_actor uuid, p_at timestamp with time zone, p_shard integer, p_key jsonb, p_notice jsonb, p_audit jsonb, p_answer jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_customer record;
  v_account uuid;
  v_before numeric;
  v_delta numeric;
  v_after numeric;
  v_moved numeric;
  v_usd numeric;
  v_direction text;
  v_message text;
  v_answer jsonb;
BEGIN
  IF p_mode NOT IN ('add', 'set') THEN
    RAISE EXCEPTION 'cp_adjust_balance: unknown mode %', p_mode;
  END IF;
  PERFORM cp_claim_key(p_key);
  SELECT name, email INTO v_customer FROM users WHERE id = p_user AND role = 'user' AND deactivated_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CPU01', MESSAGE = 'customer not found';
  END IF;
  PERFORM cp_require_live_tokens(ARRAY[p_token]);

  -- Decided under the lock of the customer's account, from the balance it holds now.
  v_account := cp_customer_account(p_user, p_token);
  SELECT balance INTO v_before FROM ledger_accounts WHERE id = v_account FOR NO KEY UPDATE;
  IF p_expected_balance IS NOT NULL AND v_before <> p_expected_balance THEN
    RAISE EXCEPTION USING ERRCODE = 'CPB01', MESSAGE = trim_scale(v_before)::text;
  END IF;
  v_delta := CASE p_mode WHEN 'add' THEN p_quantity ELSE p_quantity - v_before END;
  v_after := v_before + v_delta;
  v_answer := jsonb_set(p_answer, '{balance}', (p_answer->'balance')
    || jsonb_build_object('coinAmount', trunc(v_after, p_decimals)::text, 'coinAmountExact', trim_scale(v_after)::text,
      'balance', trim_scale(cp_usd_value(v_after, p_price))));

  IF v_delta = 0 THEN
    v_answer := jsonb_set(v_answer, '{transaction}', 'null');
  ELSE
    v_moved := abs(v_delta);
    v_usd := cp_usd_value(v_moved, p_price);
    v_direction := CASE WHEN v_delta > 0 THEN 'in' ELSE 'out' END;
    PERFORM cp_post('adjustment', p_transaction, p_reason, p_actor, CASE v_direction
      WHEN 'in' THEN cp_transfer(cp_platform_account('adjustments', p_token, p_shard), v_account, v_moved)
      ELSE cp_transfer(v_account, cp_platform_account('adjustments', p_token, p_shard), v_moved)
    END);

    INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
    VALUES (p_transaction, p_user, 'adjustment', p_token, NULL, NULL, v_moved, v_usd, p_price, 'approved', v_direction, p_reason,
      jsonb_build_object('mode', p_mode, 'requestedUsd', trim_scale(p_requested_usd)::text), p_actor, p_at, p_at);
    v_message := p_reason || ' Your ' || upper(p_symbol) || ' balance was '
      || CASE v_direction WHEN 'in' THEN 'credited with ' ELSE 'debited by ' END
      || cp_quantity_text(v_moved, p_decimals, p_symbol) || ' (' || cp_usd_text(v_usd) || ').';
    PERFORM cp_write_records(jsonb_build_object(
      'notifications', jsonb_build_array(p_notice || jsonb_build_object('message', v_message)),
      'audit', jsonb_build_array(p_audit || jsonb_build_object(
        'before', (p_audit->'before') || jsonb_build_object('balance', trim_scale(v_before)::text),
        'after', (p_audit->'after') || jsonb_build_object('balance', trim_scale(v_after)::text)))));

    v_answer := jsonb_set(v_answer, '{transaction}', (v_answer->'transaction') || jsonb_build_object(
      'user', jsonb_build_object('name', v_customer.name, 'email', v_customer.email),
      'direction', v_direction,
      'coinAmount', trunc(v_moved, p_decimals)::text,
      'coinAmountExact', trim_scale(v_moved)::text,
      'amount', trim_scale(v_usd)));
  END IF;

  -- The answer a retry with the same Idempotency-Key replays, known only now (the key was claimed first, see cp_claim_key).
  IF p_key IS NOT NULL THEN
    UPDATE idempotency_keys SET response_body = v_answer::text WHERE scope = p_key->>'scope' AND key = p_key->>'key';
  END IF;
  RETURN jsonb_build_object('answer', v_answer::text, 'moved', v_delta <> 0, 'message', v_message);
END
$function$;
