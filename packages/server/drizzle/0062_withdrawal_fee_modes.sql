-- Withdrawal fees per token and network, with a mode (issue 34). fee_schedule.withdrawal_networks overrides a token's
-- withdrawal_fee on one of its networks: {"<network>": {"mode": "network" | "fixed", "fee": "<coins>"}}.
--   network  the network fee is passed through to the customer (out of the amount, by the payout), plus `fee` (the
--            house's margin) — what withdrawal_fee has always meant, and the mode of every network without an entry;
--   fixed    the customer pays `fee` only; the platform pays the network fee: the withdrawal records
--            details.withdrawalFeeMode = 'fixed', and its payout pays the recipient the whole amount held (the signer
--            reads the mode from the withdrawal; charged_fee_base 0, so cp_complete_payout books the whole network fee
--            as the platform's cost).
-- The rule is written once, cp_withdrawal_terms, read by cp_send in its transaction: the fee and mode the caller read
-- must still be the schedule's (CPF01 otherwise). A schedule without entries sends exactly as before.
-- Also: the house exposure alert's opening and closing as the administrators' webhook events house.exposure and
-- house.recovered (cp_webhook_house_events, a trigger on house_exposure_alerts).
ALTER TABLE "fee_schedule" ADD COLUMN "withdrawal_networks" jsonb;--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD CONSTRAINT "fee_schedule_withdrawal_networks_object" CHECK ("fee_schedule"."withdrawal_networks" is null or jsonb_typeof("fee_schedule"."withdrawal_networks") = 'object');
--> statement-breakpoint
-- The withdrawal fee of a send of p_token on p_network and its mode: the network's entry, else the token's
-- withdrawal_fee with the network fee passed through (mode 'network'), else 0.
CREATE OR REPLACE FUNCTION cp_withdrawal_terms(p_token text, p_network text, OUT mode text, OUT fee numeric)
 RETURNS record
 LANGUAGE sql
 STABLE
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
  SELECT coalesce(n.entry->>'mode', 'network'), coalesce((n.entry->>'fee')::numeric, cp_withdrawal_fee(p_token))
  FROM (SELECT (SELECT withdrawal_networks->p_network FROM fee_schedule WHERE token = p_token) AS entry) AS n
$function$;
--> statement-breakpoint
-- cp_send as in 0058, its withdrawal fee per network and mode (cp_withdrawal_terms): p_fee and the mode the caller put
-- in p_details (withdrawalFeeMode, absent: 'network') must be the schedule's (CPF01). A fixed fee is written on the
-- withdrawal (details.withdrawalFeeMode 'fixed'): its payout's network fee is the platform's.
CREATE OR REPLACE FUNCTION public.cp_send(p_transaction uuid, p_user uuid, p_token text, p_network text, p_address text, p_memo text, p_quantity numeric, p_usd numeric, p_price numeric, p_details jsonb, p_at timestamp with time zone, p_code_checked boolean, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb, p_fee numeric)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_terms record;
  v_details jsonb := p_details;
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_second_factor(p_user, p_code_checked);
  PERFORM cp_require_live_tokens(ARRAY[p_token]);
  PERFORM cp_require_send_allowed(p_user, p_token, p_network, p_address, p_memo);
  PERFORM cp_require_price(p_token, p_price, p_price_grace_ms);
  PERFORM cp_require_within_limits(p_user, 'withdrawal', p_usd);
  PERFORM cp_require_unfrozen(p_user);

  -- The withdrawal fee and its mode (0050, 0062).
  SELECT * INTO v_terms FROM cp_withdrawal_terms(p_token, p_network);
  IF p_fee IS DISTINCT FROM v_terms.fee OR coalesce(p_details->>'withdrawalFeeMode', 'network') IS DISTINCT FROM v_terms.mode THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF01', MESSAGE = p_token;
  END IF;
  IF p_fee >= p_quantity THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF02', MESSAGE = p_token;
  END IF;
  IF p_fee > 0 THEN
    v_details := coalesce(v_details, '{}'::jsonb) || jsonb_build_object('withdrawalFee', p_fee::text);
  END IF;
  IF v_terms.mode = 'fixed' THEN
    v_details := coalesce(v_details, '{}'::jsonb) || jsonb_build_object('withdrawalFeeMode', 'fixed');
  END IF;

  PERFORM cp_post('withdrawal_hold', p_transaction, 'withdrawal requested', p_user,
    cp_transfer(cp_customer_account(p_user, p_token), cp_platform_account('withdrawals_pending', p_token, p_shard), p_quantity - p_fee)
    || cp_revenue_moves(cp_customer_account(p_user, p_token), p_token, 0, 0, p_fee, p_shard));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'withdrawal', p_token, p_network, p_address, p_quantity - p_fee, p_usd, p_price, 'pending', 'out', NULL,
    v_details, p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$function$;
--> statement-breakpoint
-- The house exposure alert as webhook events (administrators' endpoints only): house.exposure when the alert of a
-- token opens (a house_exposure_alerts row written by HouseExposureService, with its audit entry house.exposure),
-- house.recovered when it closes (the row deleted once the position is back at its minimum: audit house.recovered).
-- The delivery keeps the token, the position then (coins; null when its holdings are unknown) and the minimum (USD).
CREATE OR REPLACE FUNCTION cp_webhook_house_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_token text := CASE WHEN TG_OP = 'INSERT' THEN NEW.token ELSE OLD.token END;
BEGIN
  PERFORM cp_webhook_enqueue(ARRAY[CASE WHEN TG_OP = 'INSERT' THEN 'house.exposure' ELSE 'house.recovered' END], NULL, 'house',
    jsonb_build_object('token', v_token,
      'alerted_at', CASE WHEN TG_OP = 'INSERT' THEN NEW.alerted_at ELSE OLD.alerted_at END,
      'recovered_at', CASE WHEN TG_OP = 'DELETE' THEN now() END,
      'position', cp_house_position(v_token)::text,
      'min_position_usd', (cp_fee_schedule(v_token)).min_position_usd::text));
  RETURN NULL;
END
$function$;
--> statement-breakpoint
CREATE TRIGGER house_exposure_alerts_webhook AFTER INSERT OR DELETE ON house_exposure_alerts
  FOR EACH ROW EXECUTE FUNCTION cp_webhook_house_events();
