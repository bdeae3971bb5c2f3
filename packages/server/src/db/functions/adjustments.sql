-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "adjustments" family: the current definition of each function (and composite type) first created by
--   drizzle/0015_adjustment_functions.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0015_adjustment_functions.sql:
--
-- Balance adjustments by an administrator: "add" a quantity to a customer's balance in a token, or "set" the balance to
-- a quantity. A "set" is decided here, under the lock of the customer's account, from the balance it holds: nothing
-- read before can be stale. TypeScript converts the USD amount at the quoted price, builds the rows and the answer as far
-- as they are known before the call, and maps the raised codes to its errors (see the header of 0012_ledger_core.sql).
-- What only the lock knows (the balance before and after, what moves and its texts) is filled in here. Codes of their own:
--   CPU01  the customer is not found or not active
--   CPB01  the balance is no longer the one a four-eyes approval bound      MESSAGE: the balance now

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_quantity_text(numeric,integer,text)
-- Created in drizzle/0015_adjustment_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- "1,234.50000000 BTC": a quantity cut to the token's decimals, with its symbol (describe in wallet-common.ts).
CREATE OR REPLACE FUNCTION public.cp_quantity_text(p_quantity numeric, p_decimals integer, p_symbol text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT cp_group_thousands(trunc(p_quantity, p_decimals)::text) || ' ' || upper(p_symbol)
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_usd_value(numeric,numeric)
-- Created in drizzle/0015_adjustment_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The USD worth of a quantity at a price, to 8 decimals with a tie going to the even digit (usdValue in money.ts).
CREATE OR REPLACE FUNCTION public.cp_usd_value(p_quantity numeric, p_price numeric)
 RETURNS numeric
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN abs(v - trunc(v, 8)) * 1e8 = 0.5 AND mod(trunc(v * 1e8), 2) = 0 THEN trunc(v, 8)
    ELSE round(v, 8)
  END
  FROM (SELECT p_quantity * p_price AS v) AS product
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_lock_customer_balance(uuid,text)
-- Created in drizzle/0015_adjustment_functions.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The balance of a customer's account in a token (created when missing), locked until the caller's transaction ends,
-- with the token's share lock (CPT01 when it is no longer supported). For the four-eyes gate, which must know what a
-- "set" moves before it decides; cp_adjust_balance then runs in the same transaction.
CREATE OR REPLACE FUNCTION public.cp_lock_customer_balance(p_user uuid, p_token text)
 RETURNS numeric
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_account uuid;
  v_balance numeric;
BEGIN
  PERFORM cp_require_live_tokens(ARRAY[p_token]);
  v_account := cp_customer_account(p_user, p_token);
  SELECT balance INTO v_balance FROM ledger_accounts WHERE id = v_account FOR NO KEY UPDATE;
  RETURN v_balance;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_adjust_balance(uuid,uuid,text,text,numeric,numeric,numeric,text,numeric,text,integer,uuid,timestamp with time zone,integer,jsonb,jsonb,jsonb,jsonb)
-- Created in drizzle/0015_adjustment_functions.sql.
-- Changed in drizzle/0024_money_generic_plans.sql, drizzle/0057_adjustment_exact_amounts.sql.
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
-- user, direction, coinAmount and amount are filled in here, and the answer is what an Idempotency-Key replays.
-- Returns {answer (the response's JSON text), moved, message (the notification's, NULL when nothing moved)}.
--
-- Changed in drizzle/0057_adjustment_exact_amounts.sql:
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
