-- Fees, spreads, quotes, revenue and the house position (issue 34). The operator's fee schedule (fee_schedule: one row
-- per token and the default row `*`; NULL falls back to the default, then to 0) is read by the money functions under
-- their locks, so each rule is written once, here:
--   cp_swap_terms       what a swap pays the customer and the house (spread and fee, in the `to` token);
--   cp_quote_swap       a quote: those terms stored for SWAP_QUOTE_SECONDS, bound to its customer;
--   cp_use_swap_quote   a swap executes a quote's numbers once, before it expires;
--   cp_withdrawal_fee   a send's fee (coins of its token, out of the amount);
--   cp_house_position / cp_require_house_position   holdings (the last complete on-chain reading, or the inventory
--                       the operator set for a token without a chain connection) minus what customers are owed;
--   cp_revenue_moves    the postings of spread and fees to the revenue accounts (revenue_swap_spread,
--                       revenue_swap_fee, revenue_withdrawal_fee: platform accounts per token, sharded as the pool).
-- cp_swap and cp_send take three / one new parameters (last) and call these as blocks of their own. A zero schedule
-- posts nothing more and moves exactly what they moved before.
-- Codes:
--   CPQ01  the quote expired                               CPQ02  no such quote for this customer
--   CPQ03  the quote was already used
--   CPF01  the fee schedule changed since the terms were read (the caller reads them again)
--   CPF02  the amount does not cover the fees               MESSAGE: the token
--   CPH01  the house position of a token would go below its minimum   MESSAGE: the token
CREATE TABLE "fee_schedule" (
	"token" text PRIMARY KEY NOT NULL,
	"swap_spread_bps" integer,
	"swap_fee_bps" integer,
	"swap_fee_min_usd" numeric(38, 18),
	"withdrawal_fee" numeric(38, 18),
	"house_min_position_usd" numeric(38, 18),
	"inventory" numeric(38, 18),
	"set_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_schedule_spread_range" CHECK ("fee_schedule"."swap_spread_bps" is null or ("fee_schedule"."swap_spread_bps" >= 0 and "fee_schedule"."swap_spread_bps" < 5000)),
	CONSTRAINT "fee_schedule_fee_range" CHECK ("fee_schedule"."swap_fee_bps" is null or ("fee_schedule"."swap_fee_bps" >= 0 and "fee_schedule"."swap_fee_bps" < 5000)),
	CONSTRAINT "fee_schedule_nonnegative" CHECK (coalesce("fee_schedule"."swap_fee_min_usd", 0) >= 0 and coalesce("fee_schedule"."withdrawal_fee", 0) >= 0 and coalesce("fee_schedule"."inventory", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "house_exposure_alerts" (
	"token" text PRIMARY KEY NOT NULL,
	"alerted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "house_holdings" (
	"token" text PRIMARY KEY NOT NULL,
	"on_chain" numeric(38, 18) NOT NULL,
	"read_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "swap_quotes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"from_token" text NOT NULL,
	"to_token" text NOT NULL,
	"from_quantity" numeric(38, 18) NOT NULL,
	"to_quantity" numeric(38, 18) NOT NULL,
	"spread_quantity" numeric(38, 18) NOT NULL,
	"fee_quantity" numeric(38, 18) NOT NULL,
	"usd" numeric(38, 18) NOT NULL,
	"fee_usd" numeric(38, 18) NOT NULL,
	"from_price" numeric(38, 18) NOT NULL,
	"to_price" numeric(38, 18) NOT NULL,
	"rate" numeric NOT NULL,
	"spread_bps" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone,
	"transaction_id" uuid
);
--> statement-breakpoint
CREATE INDEX "swap_quotes_expires_idx" ON "swap_quotes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "ledger_accounts_platform_token_idx" ON "ledger_accounts" USING btree ("token") WHERE "ledger_accounts"."kind" = 'platform';--> statement-breakpoint
ALTER TABLE "admin_approvals" DROP CONSTRAINT "admin_approvals_action_check";--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_action_check" CHECK ("admin_approvals"."action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin', 'reverse-chain-deposit', 'change-fees'));--> statement-breakpoint
-- The schedule's values for a token: its own row, else the default row `*`, else 0.
CREATE FUNCTION cp_fee_schedule(p_token text, OUT spread_bps integer, OUT fee_bps integer, OUT fee_min_usd numeric,
  OUT withdrawal_fee numeric, OUT min_position_usd numeric, OUT inventory numeric)
LANGUAGE sql STABLE AS $$
  SELECT coalesce(t.swap_spread_bps, d.swap_spread_bps, 0), coalesce(d.swap_fee_bps, 0), coalesce(d.swap_fee_min_usd, 0),
    coalesce(t.withdrawal_fee, 0), coalesce(t.house_min_position_usd, d.house_min_position_usd, 0), t.inventory
  FROM (SELECT 1) AS one
  LEFT JOIN fee_schedule AS d ON d.token = '*'
  LEFT JOIN fee_schedule AS t ON t.token = p_token
$$;
--> statement-breakpoint
-- What a swap of p_from_quantity of p_from pays, at these prices, under the schedule now: {toQuantity (the customer's),
-- grossQuantity (at the market price), spreadQuantity and feeQuantity (the house's: gross = to + spread + fee),
-- usd, feeUsd, spreadBps, rate (`to` per `from`, the spread in it)}. All of it in the `to` token, truncated to its
-- decimals; the rounding dust of the customer's quantity goes with the spread. The swap fee is fee_bps of the USD
-- value, at least fee_min_usd — when the schedule charges one. A zero schedule: toQuantity = grossQuantity, as before.
CREATE FUNCTION cp_swap_terms(p_from text, p_to text, p_from_quantity numeric, p_from_price numeric, p_to_price numeric)
RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_fees record := cp_fee_schedule(p_to);
  v_decimals integer := cp_token_decimals(p_to);
  v_usd numeric := p_from_quantity * p_from_price;
  v_spread_usd numeric;
  v_fee_usd numeric := 0;
  v_gross numeric;
  v_net numeric;
  v_fee numeric;
BEGIN
  v_gross := trunc(v_usd / p_to_price, v_decimals);
  v_spread_usd := v_usd * v_fees.spread_bps / 10000;
  IF v_fees.fee_bps > 0 OR v_fees.fee_min_usd > 0 THEN
    v_fee_usd := greatest(v_usd * v_fees.fee_bps / 10000, v_fees.fee_min_usd);
  END IF;
  IF v_spread_usd = 0 AND v_fee_usd = 0 THEN
    v_net := v_gross;
    v_fee := 0;
  ELSE
    v_net := greatest(trunc((v_usd - v_spread_usd - v_fee_usd) / p_to_price, v_decimals), 0);
    v_fee := least(trunc(v_fee_usd / p_to_price, v_decimals), v_gross - v_net);
  END IF;
  RETURN jsonb_build_object('toQuantity', v_net, 'grossQuantity', v_gross, 'spreadQuantity', v_gross - v_net - v_fee,
    'feeQuantity', v_fee, 'usd', v_usd, 'feeUsd', v_fee_usd, 'spreadBps', v_fees.spread_bps,
    'rate', trim_scale(round(p_from_price / p_to_price * (10000 - v_fees.spread_bps) / 10000, 12)));
END
$$;
--> statement-breakpoint
-- A swap priced now (no quote): the quantities the caller read from cp_swap_terms must still be the schedule's
-- (CPF01 otherwise: it changed meanwhile), and the customer must get something (CPF02).
CREATE FUNCTION cp_require_swap_terms(p_from text, p_to text, p_from_quantity numeric, p_from_price numeric, p_to_price numeric,
  p_to_quantity numeric, p_spread_quantity numeric, p_fee_quantity numeric)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_terms jsonb := cp_swap_terms(p_from, p_to, p_from_quantity, p_from_price, p_to_price);
BEGIN
  IF (v_terms->>'toQuantity')::numeric <> p_to_quantity OR (v_terms->>'spreadQuantity')::numeric <> p_spread_quantity
    OR (v_terms->>'feeQuantity')::numeric <> p_fee_quantity THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF01', MESSAGE = p_to;
  END IF;
  IF p_to_quantity <= 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF02', MESSAGE = p_to;
  END IF;
END
$$;
--> statement-breakpoint
-- The house position of a token, in its coins: holdings minus what customers are owed (balances and withdrawals not
-- paid yet). Holdings: the inventory the operator set (a token without a chain connection), else the last complete
-- on-chain reading (house_holdings, written by the reserves check); NULL when neither is known (no rule then).
-- What customers are owed is read from the platform side, a few rows per token: every entry sums to zero, so the
-- customers' balances are minus the platform accounts', and the pending withdrawals are owed as well.
CREATE FUNCTION cp_house_position(p_token text)
RETURNS numeric LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_holdings numeric;
  v_owed numeric;
BEGIN
  v_holdings := coalesce((SELECT inventory FROM fee_schedule WHERE token = p_token), (SELECT on_chain FROM house_holdings WHERE token = p_token));
  IF v_holdings IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT -coalesce(sum(balance), 0) INTO v_owed FROM ledger_accounts
  WHERE kind = 'platform' AND token = p_token AND split_part(platform_code, '#', 1) <> 'withdrawals_pending';
  RETURN v_holdings - v_owed;
END
$$;
--> statement-breakpoint
-- CPH01 (MESSAGE: the token) when paying out p_quantity more of a token would take its house position below the
-- schedule's minimum (in USD at p_price). Checked under a per-token transaction lock, so two concurrent swaps cannot
-- both take the last coins; only for a token whose holdings are known.
CREATE FUNCTION cp_require_house_position(p_token text, p_quantity numeric, p_price numeric)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_position numeric;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM fee_schedule WHERE token = p_token AND inventory IS NOT NULL)
    AND NOT EXISTS (SELECT 1 FROM house_holdings WHERE token = p_token) THEN
    RETURN;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('cp_house_position'), hashtext(p_token));
  v_position := cp_house_position(p_token);
  IF v_position - p_quantity < (cp_fee_schedule(p_token)).min_position_usd / p_price THEN
    RAISE EXCEPTION USING ERRCODE = 'CPH01', MESSAGE = p_token;
  END IF;
END
$$;
--> statement-breakpoint
-- The postings of the house's revenue in a token, from one account (the swap pool, the customer): none when zero, so a
-- zero schedule locks no more rows than before.
CREATE FUNCTION cp_revenue_moves(p_from uuid, p_token text, p_spread numeric, p_swap_fee numeric, p_withdrawal_fee numeric, p_shard integer)
RETURNS cp_move[] LANGUAGE plpgsql AS $$
DECLARE
  v_moves cp_move[] := '{}';
BEGIN
  IF p_spread > 0 THEN
    v_moves := v_moves || cp_transfer(p_from, cp_platform_account('revenue_swap_spread', p_token, p_shard), p_spread);
  END IF;
  IF p_swap_fee > 0 THEN
    v_moves := v_moves || cp_transfer(p_from, cp_platform_account('revenue_swap_fee', p_token, p_shard), p_swap_fee);
  END IF;
  IF p_withdrawal_fee > 0 THEN
    v_moves := v_moves || cp_transfer(p_from, cp_platform_account('revenue_withdrawal_fee', p_token, p_shard), p_withdrawal_fee);
  END IF;
  RETURN v_moves;
END
$$;
--> statement-breakpoint
-- A quote: the terms of a swap at the current prices (CPP01 when a price is not the current one), stored until
-- p_expires_at for this customer only; CPF02 when the customer would get nothing; CPH01 when the house could not pay it
-- now (the customer is told before trying). Unused quotes expired a day ago are deleted. Returns the terms.
CREATE FUNCTION cp_quote_swap(p_quote uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_from_price numeric,
  p_to_price numeric, p_price_grace_ms integer, p_expires_at timestamptz)
RETURNS jsonb LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_terms jsonb;
  v_position numeric;
BEGIN
  PERFORM cp_require_live_tokens(ARRAY[p_from, p_to]);
  PERFORM cp_require_price(p_from, p_from_price, p_price_grace_ms);
  PERFORM cp_require_price(p_to, p_to_price, p_price_grace_ms);
  v_terms := cp_swap_terms(p_from, p_to, p_from_quantity, p_from_price, p_to_price);
  IF (v_terms->>'toQuantity')::numeric <= 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF02', MESSAGE = p_to;
  END IF;
  v_position := cp_house_position(p_to);
  IF v_position - (v_terms->>'toQuantity')::numeric < (cp_fee_schedule(p_to)).min_position_usd / p_to_price THEN
    RAISE EXCEPTION USING ERRCODE = 'CPH01', MESSAGE = p_to;
  END IF;
  DELETE FROM swap_quotes WHERE expires_at < now() - interval '1 day' AND used_at IS NULL;
  INSERT INTO swap_quotes (id, user_id, from_token, to_token, from_quantity, to_quantity, spread_quantity, fee_quantity, usd,
    fee_usd, from_price, to_price, rate, spread_bps, expires_at)
  VALUES (p_quote, p_user, p_from, p_to, p_from_quantity, (v_terms->>'toQuantity')::numeric, (v_terms->>'spreadQuantity')::numeric,
    (v_terms->>'feeQuantity')::numeric, (v_terms->>'usd')::numeric, (v_terms->>'feeUsd')::numeric, p_from_price, p_to_price,
    (v_terms->>'rate')::numeric, (v_terms->>'spreadBps')::integer, p_expires_at);
  RETURN v_terms;
END
$$;
--> statement-breakpoint
-- A swap with a quote executes exactly the quote's numbers, once (the quote row locked first, then marked used by
-- this transaction): CPQ02 when it is not this customer's, CPQ03 when used, CPQ01 when expired (the database's clock).
-- The caller passes the quote's numbers (it answers them); any difference is a bug, never executed.
CREATE FUNCTION cp_use_swap_quote(p_quote uuid, p_user uuid, p_transaction uuid, p_from text, p_to text, p_from_quantity numeric,
  p_to_quantity numeric, p_spread_quantity numeric, p_fee_quantity numeric, p_from_price numeric, p_to_price numeric)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_quote swap_quotes%ROWTYPE;
BEGIN
  SELECT * INTO v_quote FROM swap_quotes WHERE id = p_quote FOR UPDATE;
  IF NOT FOUND OR v_quote.user_id <> p_user THEN
    RAISE EXCEPTION USING ERRCODE = 'CPQ02', MESSAGE = 'not found';
  END IF;
  IF v_quote.used_at IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPQ03', MESSAGE = 'used';
  END IF;
  IF v_quote.expires_at <= now() THEN
    RAISE EXCEPTION USING ERRCODE = 'CPQ01', MESSAGE = 'expired';
  END IF;
  IF (v_quote.from_token, v_quote.to_token, v_quote.from_quantity, v_quote.to_quantity, v_quote.spread_quantity, v_quote.fee_quantity,
      v_quote.from_price, v_quote.to_price)
    IS DISTINCT FROM (p_from, p_to, p_from_quantity, p_to_quantity, p_spread_quantity, p_fee_quantity, p_from_price, p_to_price) THEN
    RAISE EXCEPTION 'swap quote %: the swap asked is not the quote', p_quote;
  END IF;
  UPDATE swap_quotes SET used_at = now(), transaction_id = p_transaction WHERE id = p_quote;
END
$$;
--> statement-breakpoint
-- A send's fee in coins of its token (the schedule's, out of the amount: the recipient gets the amount less it and
-- less the network fee).
CREATE FUNCTION cp_withdrawal_fee(p_token text)
RETURNS numeric LANGUAGE sql STABLE SET plan_cache_mode = force_generic_plan AS $$
  SELECT (cp_fee_schedule(p_token)).withdrawal_fee
$$;
--> statement-breakpoint
DROP FUNCTION cp_swap(uuid, uuid, text, text, numeric, numeric, numeric, numeric, numeric, text, jsonb, timestamptz, integer, integer, jsonb, jsonb);
--> statement-breakpoint
-- A swap at the quoted prices: the customer's `from` quantity goes to the swap pool, the pool pays out the `to`
-- quantity, with the swap row and the audit entry. Since 0050: priced by a quote (p_quote: its numbers, once, before it
-- expires) or now (the prices current and the schedule's terms); the house's spread and fee (p_spread_quantity,
-- p_fee_quantity, in the `to` token) go from the pool to the revenue accounts; the house must still hold the `to`
-- token it pays out (its position).
CREATE FUNCTION cp_swap(p_transaction uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_to_quantity numeric,
  p_usd numeric, p_from_price numeric, p_to_price numeric, p_note text, p_details jsonb, p_at timestamptz, p_price_grace_ms integer,
  p_shard integer, p_key jsonb, p_records jsonb, p_quote uuid, p_spread_quantity numeric, p_fee_quantity numeric)
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
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
$$;
--> statement-breakpoint
DROP FUNCTION cp_send(uuid, uuid, text, text, text, text, numeric, numeric, numeric, jsonb, timestamptz, boolean, integer, integer, jsonb, jsonb);
--> statement-breakpoint
-- A send: the customer's quantity moves to the pending withdrawals (until an admin or the payout job settles or
-- rejects it), with the pending withdrawal row, the notification, the audit entry and the security mail. Since 0050:
-- the schedule's withdrawal fee (p_fee, which the caller read: CPF01 when it changed, CPF02 when it takes the whole
-- amount) goes to the revenue account and the rest (p_quantity − p_fee, the row's coin_amount) is held and paid out;
-- no withdrawal while the house position of the token is below its minimum.
CREATE FUNCTION cp_send(p_transaction uuid, p_user uuid, p_token text, p_network text, p_address text, p_memo text, p_quantity numeric,
  p_usd numeric, p_price numeric, p_details jsonb, p_at timestamptz, p_code_checked boolean, p_price_grace_ms integer, p_shard integer,
  p_key jsonb, p_records jsonb, p_fee numeric)
RETURNS void LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_second_factor(p_user, p_code_checked);
  PERFORM cp_require_live_tokens(ARRAY[p_token]);
  PERFORM cp_require_send_allowed(p_user, p_token, p_network, p_address, p_memo);
  PERFORM cp_require_price(p_token, p_price, p_price_grace_ms);

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
$$;
--> statement-breakpoint
-- A withdrawal's fee is the house's while the withdrawal stands (pending or approved, not voided): when it is rejected,
-- fails or is voided the fee goes back to the customer with the amount, and when an admin makes it stand again it is
-- taken again (CPI01 when the customer no longer holds it). The status functions move the amount (coin_amount); this
-- moves the fee (details.withdrawalFee), in the same transaction.
CREATE FUNCTION cp_withdrawal_fee_follows_status()
RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_fee numeric := coalesce((NEW.details->>'withdrawalFee')::numeric, 0);
  v_stood boolean := OLD.status IN ('pending', 'approved') AND OLD.voided_at IS NULL;
  v_stands boolean := NEW.status IN ('pending', 'approved') AND NEW.voided_at IS NULL;
BEGIN
  IF v_fee > 0 AND v_stood <> v_stands THEN
    PERFORM cp_post(CASE WHEN v_stands THEN 'withdrawal_fee' ELSE 'withdrawal_fee_refund' END, NEW.id,
      CASE WHEN v_stands THEN 'withdrawal fee taken again' ELSE 'withdrawal fee returned' END, NULL,
      CASE WHEN v_stands
        THEN cp_transfer(cp_customer_account(NEW.user_id, NEW.token), cp_platform_account('revenue_withdrawal_fee', NEW.token, NULL), v_fee)
        ELSE cp_transfer(cp_platform_account('revenue_withdrawal_fee', NEW.token, NULL), cp_customer_account(NEW.user_id, NEW.token), v_fee) END);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER withdrawal_fee_follows_status AFTER UPDATE OF status, voided_at ON transactions
FOR EACH ROW WHEN (NEW.type = 'withdrawal' AND (NEW.details ? 'withdrawalFee')) EXECUTE FUNCTION cp_withdrawal_fee_follows_status();
--> statement-breakpoint
-- The hot path reads the schedule from the reference-data cache (a swap with no spread and no fee, and a send's fee,
-- need no extra statement); a change drops every instance's copy, as a change to coins or tokens does (0004).
CREATE TRIGGER fee_schedule_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fee_schedule
FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
