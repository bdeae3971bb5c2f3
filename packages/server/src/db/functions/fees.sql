-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "fees" family: the current definition of each function (and composite type) first created by
--   drizzle/0050_fees.sql
--   drizzle/0062_withdrawal_fee_modes.sql
--   drizzle/0066_swap_terms_batch.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0050_fees.sql:
--
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

-- From the header of drizzle/0062_withdrawal_fee_modes.sql:
--
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

-- From the header of drizzle/0066_swap_terms_batch.sql:
--
-- The terms of many swaps priced now in one statement (issue 36): a swap under a charging fee schedule reads its terms
-- (cp_swap_terms) before it is sent, and concurrent swaps read theirs together, as they are then written together
-- (0065). Each element: cp_swap_terms' five values in order (from, to, from quantity, from price, to price); the
-- answer: their terms in the same order. Only a read: cp_swap checks the terms again under its locks (CPF01).

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_fee_schedule(text)
-- Created in drizzle/0050_fees.sql.
-- Changed in drizzle/0064_lighter_money_checks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The schedule's values for a token: its own row, else the default row `*`, else 0.
--
-- Changed in drizzle/0064_lighter_money_checks.sql:
-- Lighter checks inside the money functions (issue 36): the same rules, cheaper to ask under concurrency.
-- * cp_fee_schedule is PL/pgSQL: a LANGUAGE sql function returning a record is planned again on every call from
--   PL/pgSQL (its plan is not kept between calls), about a tenth of a swap's time in PostgreSQL; PL/pgSQL keeps its plan.
-- * cp_require_live_tokens no longer share-locks the supported_tokens rows. Every swap locking the same two or three rows
--   made PostgreSQL create a multixact (written to the WAL) per lock once two swaps overlapped. The money operations
--   now hold a shared advisory lock per token (lock manager only) and read the rows. A change of a token takes that
--   lock exclusively (cp_lock_token_change): the admin's removal right after it locks the row FOR UPDATE, before it
--   checks that no customer holds the token, and every UPDATE or DELETE of a supported_tokens row by trigger
--   (supported_tokens_live_lock). So a removal still waits for the operations in flight on the token, and an operation
--   after it sees it removed: the guarantee the row share lock gave.
-- * cp_require_unfrozen locks the customer's users row FOR KEY SHARE instead of FOR SHARE: the freeze's FOR UPDATE
--   still conflicts with it (a send or swap either commits before the freeze or sees it), the transaction row's
--   foreign key check takes the same lock anyway, and other changes of the customer's row no longer wait for their
--   money operations.
CREATE OR REPLACE FUNCTION public.cp_fee_schedule(p_token text, OUT spread_bps integer, OUT fee_bps integer, OUT fee_min_usd numeric, OUT withdrawal_fee numeric, OUT min_position_usd numeric, OUT inventory numeric)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  SELECT coalesce(t.swap_spread_bps, d.swap_spread_bps, 0), coalesce(d.swap_fee_bps, 0), coalesce(d.swap_fee_min_usd, 0),
    coalesce(t.withdrawal_fee, 0), coalesce(t.house_min_position_usd, d.house_min_position_usd, 0), t.inventory
  INTO spread_bps, fee_bps, fee_min_usd, withdrawal_fee, min_position_usd, inventory
  FROM (SELECT 1) AS one
  LEFT JOIN fee_schedule AS d ON d.token = '*'
  LEFT JOIN fee_schedule AS t ON t.token = p_token;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_swap_terms(text,text,numeric,numeric,numeric)
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- What a swap of p_from_quantity of p_from pays, at these prices, under the schedule now: {toQuantity (the customer's),
-- grossQuantity (at the market price), spreadQuantity and feeQuantity (the house's: gross = to + spread + fee),
-- usd, feeUsd, spreadBps, rate (`to` per `from`, the spread in it)}. All of it in the `to` token, truncated to its
-- decimals; the rounding dust of the customer's quantity goes with the spread. The swap fee is fee_bps of the USD
-- value, at least fee_min_usd — when the schedule charges one. A zero schedule: toQuantity = grossQuantity, as before.
CREATE OR REPLACE FUNCTION public.cp_swap_terms(p_from text, p_to text, p_from_quantity numeric, p_from_price numeric, p_to_price numeric)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_swap_terms(text,text,numeric,numeric,numeric,numeric,numeric,numeric)
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A swap priced now (no quote): the quantities the caller read from cp_swap_terms must still be the schedule's
-- (CPF01 otherwise: it changed meanwhile), and the customer must get something (CPF02).
CREATE OR REPLACE FUNCTION public.cp_require_swap_terms(p_from text, p_to text, p_from_quantity numeric, p_from_price numeric, p_to_price numeric, p_to_quantity numeric, p_spread_quantity numeric, p_fee_quantity numeric)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_house_position(text)
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The house position of a token, in its coins: holdings minus what customers are owed (balances and withdrawals not
-- paid yet). Holdings: the inventory the operator set (a token without a chain connection), else the last complete
-- on-chain reading (house_holdings, written by the reserves check); NULL when neither is known (no rule then).
-- What customers are owed is read from the platform side, a few rows per token: every entry sums to zero, so the
-- customers' balances are minus the platform accounts', and the pending withdrawals are owed as well.
CREATE OR REPLACE FUNCTION public.cp_house_position(p_token text)
 RETURNS numeric
 LANGUAGE plpgsql
 STABLE
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_house_position(text,numeric,numeric)
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- CPH01 (MESSAGE: the token) when paying out p_quantity more of a token would take its house position below the
-- schedule's minimum (in USD at p_price). Checked under a per-token transaction lock, so two concurrent swaps cannot
-- both take the last coins; only for a token whose holdings are known.
CREATE OR REPLACE FUNCTION public.cp_require_house_position(p_token text, p_quantity numeric, p_price numeric)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_revenue_moves(uuid,text,numeric,numeric,numeric,integer)
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The postings of the house's revenue in a token, from one account (the swap pool, the customer): none when zero, so a
-- zero schedule locks no more rows than before.
CREATE OR REPLACE FUNCTION public.cp_revenue_moves(p_from uuid, p_token text, p_spread numeric, p_swap_fee numeric, p_withdrawal_fee numeric, p_shard integer)
 RETURNS cp_move[]
 LANGUAGE plpgsql
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_quote_swap(uuid,uuid,text,text,numeric,numeric,numeric,integer,timestamp with time zone)
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A quote: the terms of a swap at the current prices (CPP01 when a price is not the current one), stored until
-- p_expires_at for this customer only; CPF02 when the customer would get nothing; CPH01 when the house could not pay it
-- now (the customer is told before trying). Unused quotes expired a day ago are deleted. Returns the terms.
CREATE OR REPLACE FUNCTION public.cp_quote_swap(p_quote uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_from_price numeric, p_to_price numeric, p_price_grace_ms integer, p_expires_at timestamp with time zone)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_use_swap_quote(uuid,uuid,uuid,text,text,numeric,numeric,numeric,numeric,numeric,numeric)
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A swap with a quote executes exactly the quote's numbers, once (the quote row locked first, then marked used by
-- this transaction): CPQ02 when it is not this customer's, CPQ03 when used, CPQ01 when expired (the database's clock).
-- The caller passes the quote's numbers (it answers them); any difference is a bug, never executed.
CREATE OR REPLACE FUNCTION public.cp_use_swap_quote(p_quote uuid, p_user uuid, p_transaction uuid, p_from text, p_to text, p_from_quantity numeric, p_to_quantity numeric, p_spread_quantity numeric, p_fee_quantity numeric, p_from_price numeric, p_to_price numeric)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_withdrawal_fee(text)
-- Created in drizzle/0050_fees.sql.
-- Changed in drizzle/0067_withdrawal_terms_plpgsql.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A send's fee in coins of its token (the schedule's, out of the amount: the recipient gets the amount less it and
-- less the network fee).
--
-- Changed in drizzle/0067_withdrawal_terms_plpgsql.sql:
-- cp_withdrawal_terms and cp_withdrawal_fee as PL/pgSQL (issue 36's note), as 0064 did for cp_fee_schedule: a
-- LANGUAGE sql function with a SET clause is never inlined, and called from PL/pgSQL it is planned again on every call.
-- Both are on every send's path (cp_send reads the terms under its locks; the Send confirm step reads them first).
-- Same answers: the network's entry of the token's schedule, else the token's withdrawal fee with the network fee
-- passed through (mode 'network'), else 0.
CREATE OR REPLACE FUNCTION public.cp_withdrawal_fee(p_token text)
 RETURNS numeric
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (cp_fee_schedule(p_token)).withdrawal_fee;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_withdrawal_fee_follows_status()
-- Created in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A withdrawal's fee is the house's while the withdrawal stands (pending or approved, not voided): when it is rejected,
-- fails or is voided the fee goes back to the customer with the amount, and when an admin makes it stand again it is
-- taken again (CPI01 when the customer no longer holds it). The status functions move the amount (coin_amount); this
-- moves the fee (details.withdrawalFee), in the same transaction.
CREATE OR REPLACE FUNCTION public.cp_withdrawal_fee_follows_status()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE TRIGGER withdrawal_fee_follows_status AFTER UPDATE OF status, voided_at ON public.transactions FOR EACH ROW WHEN (((new.type = 'withdrawal'::text) AND (new.details ? 'withdrawalFee'::text))) EXECUTE FUNCTION cp_withdrawal_fee_follows_status();

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_withdrawal_terms(text,text)
-- Created in drizzle/0062_withdrawal_fee_modes.sql.
-- Changed in drizzle/0067_withdrawal_terms_plpgsql.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The withdrawal fee of a send of p_token on p_network and its mode: the network's entry, else the token's
-- withdrawal_fee with the network fee passed through (mode 'network'), else 0.
CREATE OR REPLACE FUNCTION public.cp_withdrawal_terms(p_token text, p_network text, OUT mode text, OUT fee numeric)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_entry jsonb;
BEGIN
  SELECT withdrawal_networks->p_network INTO v_entry FROM fee_schedule WHERE token = p_token;
  mode := coalesce(v_entry->>'mode', 'network');
  fee := coalesce((v_entry->>'fee')::numeric, cp_withdrawal_fee(p_token));
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_webhook_house_events()
-- Created in drizzle/0062_withdrawal_fee_modes.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The house exposure alert as webhook events (administrators' endpoints only): house.exposure when the alert of a
-- token opens (a house_exposure_alerts row written by HouseExposureService, with its audit entry house.exposure),
-- house.recovered when it closes (the row deleted once the position is back at its minimum: audit house.recovered).
-- The delivery keeps the token, the position then (coins; null when its holdings are unknown) and the minimum (USD).
CREATE OR REPLACE FUNCTION public.cp_webhook_house_events()
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

CREATE TRIGGER house_exposure_alerts_webhook AFTER INSERT OR DELETE ON public.house_exposure_alerts FOR EACH ROW EXECUTE FUNCTION cp_webhook_house_events();

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_swap_terms_batch(jsonb)
-- Created in drizzle/0066_swap_terms_batch.sql.
-- ---------------------------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.cp_swap_terms_batch(p_swaps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  RETURN (
    SELECT coalesce(jsonb_agg(cp_swap_terms(s->>0, s->>1, (s->>2)::numeric, (s->>3)::numeric, (s->>4)::numeric) ORDER BY n), '[]')
    FROM jsonb_array_elements(p_swaps) WITH ORDINALITY AS e(s, n)
  );
END
$function$;
