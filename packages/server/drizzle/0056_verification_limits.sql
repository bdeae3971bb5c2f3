-- Verification limits in the money functions (issue 35). One rule, written once: cp_require_within_limits(user, kind,
-- usd), called by cp_send (withdrawals) and cp_swap (swaps) before they move anything, and by the chain deposits'
-- crediting (drizzle/0057). With KYC_LIMITS on (verification_settings.limits_enabled, written at start) it locks the
-- customer's row (FOR NO KEY UPDATE: one limited call of a customer at a time, so the sums it reads count every call
-- committed before it and two concurrent sends can never both fit under what is left), then checks the amount against
-- the level's limits (verification_limits): the largest single withdrawal, the rolling 24 hours and the rolling 30 days,
-- as cp_verification_usage sums them. A limit is reached, not passed: used + amount up to the limit goes through.
-- Code of its own:
--   CPL01  over a verification limit   MESSAGE: {"kind", "period" (single, day, month), "level", "limitUsd", "leftUsd"}
CREATE OR REPLACE FUNCTION cp_require_within_limits(p_user uuid, p_kind text, p_usd numeric)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  v_level smallint;
  v_limits verification_limits%ROWTYPE;
  v_day numeric;
  v_month numeric;
  v_day_used numeric := 0;
  v_month_used numeric := 0;
BEGIN
  IF NOT coalesce((SELECT limits_enabled FROM verification_settings WHERE id = 1), false) THEN
    RETURN;
  END IF;
  SELECT verification_level INTO v_level FROM users WHERE id = p_user FOR NO KEY UPDATE;
  SELECT * INTO v_limits FROM verification_limits WHERE level = coalesce(v_level, 0);
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_kind = 'withdrawal' AND v_limits.withdrawal_single IS NOT NULL AND p_usd > v_limits.withdrawal_single THEN
    RAISE EXCEPTION USING ERRCODE = 'CPL01', MESSAGE = json_build_object('kind', p_kind, 'period', 'single', 'level', v_level,
      'limitUsd', v_limits.withdrawal_single::text, 'leftUsd', v_limits.withdrawal_single::text)::text;
  END IF;
  v_day := CASE p_kind WHEN 'deposit' THEN v_limits.deposit_day WHEN 'withdrawal' THEN v_limits.withdrawal_day WHEN 'swap' THEN v_limits.swap_day END;
  v_month := CASE p_kind WHEN 'deposit' THEN v_limits.deposit_month WHEN 'withdrawal' THEN v_limits.withdrawal_month WHEN 'swap' THEN v_limits.swap_month END;
  IF v_day IS NULL AND v_month IS NULL THEN
    RETURN;
  END IF;
  SELECT u.day_usd, u.month_usd INTO v_day_used, v_month_used FROM cp_verification_usage(p_user) u WHERE u.kind = p_kind;
  v_day_used := coalesce(v_day_used, 0);
  v_month_used := coalesce(v_month_used, 0);
  IF v_day IS NOT NULL AND v_day_used + p_usd > v_day THEN
    RAISE EXCEPTION USING ERRCODE = 'CPL01', MESSAGE = json_build_object('kind', p_kind, 'period', 'day', 'level', v_level,
      'limitUsd', v_day::text, 'leftUsd', greatest(v_day - v_day_used, 0)::text)::text;
  END IF;
  IF v_month IS NOT NULL AND v_month_used + p_usd > v_month THEN
    RAISE EXCEPTION USING ERRCODE = 'CPL01', MESSAGE = json_build_object('kind', p_kind, 'period', 'month', 'level', v_level,
      'limitUsd', v_month::text, 'leftUsd', greatest(v_month - v_month_used, 0)::text)::text;
  END IF;
END
$$;
--> statement-breakpoint
-- cp_send and cp_swap as in 0050 (fees), with the limit rule after the price checks (before anything moves).
CREATE OR REPLACE FUNCTION cp_send(p_transaction uuid, p_user uuid, p_token text, p_network text, p_address text, p_memo text, p_quantity numeric, p_usd numeric, p_price numeric, p_details jsonb, p_at timestamp with time zone, p_code_checked boolean, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb, p_fee numeric)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_second_factor(p_user, p_code_checked);
  PERFORM cp_require_live_tokens(ARRAY[p_token]);
  PERFORM cp_require_send_allowed(p_user, p_token, p_network, p_address, p_memo);
  PERFORM cp_require_price(p_token, p_price, p_price_grace_ms);
  PERFORM cp_require_within_limits(p_user, 'withdrawal', p_usd);

  -- The withdrawal fee (0050).
  IF p_fee IS DISTINCT FROM cp_withdrawal_fee(p_token) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF01', MESSAGE = p_token;
  END IF;
  IF p_fee >= p_quantity THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF02', MESSAGE = p_token;
  END IF;

  -- The house position of the token (0050): nothing is paid out while the house holds less than it owes.
  PERFORM cp_require_house_position(p_token, 0, p_price);

  PERFORM cp_post('withdrawal_hold', p_transaction, 'withdrawal requested', p_user,
    cp_transfer(cp_customer_account(p_user, p_token), cp_platform_account('withdrawals_pending', p_token, p_shard), p_quantity - p_fee)
    || cp_revenue_moves(cp_customer_account(p_user, p_token), p_token, 0, 0, p_fee, p_shard));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'withdrawal', p_token, p_network, p_address, p_quantity - p_fee, p_usd, p_price, 'pending', 'out', NULL,
    CASE WHEN p_fee > 0 THEN coalesce(p_details, '{}'::jsonb) || jsonb_build_object('withdrawalFee', p_fee::text) ELSE p_details END,
    p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cp_swap(p_transaction uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_to_quantity numeric, p_usd numeric, p_from_price numeric, p_to_price numeric, p_note text, p_details jsonb, p_at timestamp with time zone, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb, p_quote uuid, p_spread_quantity numeric, p_fee_quantity numeric)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_live_tokens(ARRAY[p_from, p_to]);

  -- Priced by a quote, or now (fees: 0050).
  IF p_quote IS NOT NULL THEN
    PERFORM cp_use_swap_quote(p_quote, p_user, p_transaction, p_from, p_to, p_from_quantity, p_to_quantity, p_spread_quantity,
      p_fee_quantity, p_from_price, p_to_price);
  ELSE
    PERFORM cp_require_price(p_from, p_from_price, p_price_grace_ms);
    PERFORM cp_require_price(p_to, p_to_price, p_price_grace_ms);
    PERFORM cp_require_swap_terms(p_from, p_to, p_from_quantity, p_from_price, p_to_price, p_to_quantity, p_spread_quantity, p_fee_quantity);
  END IF;

  PERFORM cp_require_within_limits(p_user, 'swap', p_usd);

  -- The house position of the token it pays out (0050).
  PERFORM cp_require_house_position(p_to, p_to_quantity, p_to_price);

  PERFORM cp_post('swap', p_transaction, 'swap ' || p_from || ' to ' || p_to, p_user,
    cp_transfer(cp_customer_account(p_user, p_from), cp_platform_account('swap_pool', p_from, p_shard), p_from_quantity)
    || cp_transfer(cp_platform_account('swap_pool', p_to, p_shard), cp_customer_account(p_user, p_to), p_to_quantity)
    || cp_revenue_moves(cp_platform_account('swap_pool', p_to, p_shard), p_to, p_spread_quantity, p_fee_quantity, 0, p_shard));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'swap', p_from, NULL, NULL, p_from_quantity, p_usd, p_from_price, 'approved', 'out', p_note, p_details, p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$function$;
