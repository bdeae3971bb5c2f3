-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "admin-transactions" family: the current definition of each function (and composite type) first created by
--   drizzle/0014_admin_transaction_functions.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0014_admin_transaction_functions.sql:
--
-- The admin's transaction commands: a deposit recorded for a customer, a status change of a deposit or withdrawal,
-- and a void. Each is one call and one round trip. TypeScript validates the request (the deposit's token and network,
-- a txHash's format), quotes the deposit's price, writes the deposit's texts and the audit rows, decides four-eyes
-- (reading the plan of a status change or void first, under its row lock) and maps the raised codes to its errors (see
-- the header of 0012_ledger_core.sql). A status change or void names a transaction only this function reads, so its
-- notification is written here (the texts as TypeScript prints amounts: cp_amount_text, cp_usd_text). Codes of their own:
--   CPU01  the customer is not found or not active (an admin, deactivated)
--   CPX01  the transaction is not found or voided          MESSAGE: 'not found'
--          it is not a deposit or withdrawal (no status)   MESSAGE: its type
--   CPX02  the transaction's status is not the one the caller expected   MESSAGE: the status now
--   CPX03  a txHash is given for anything but approving a withdrawal
-- A withdrawal whose payment is signed keeps its status and is never voided: the payouts trigger of 0011 raises CP011.

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_transaction_location(text,text)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Where a deposit's or withdrawal's quantity sits in a status (the table in four-eyes-policy.ts): 'customer' or the
-- code of the platform account holding it. A deposit's is with the customer once approved, else in the deposits
-- account; a withdrawal's is held in withdrawals_pending, paid out in withdrawals_settled, back with the customer when
-- rejected.
CREATE OR REPLACE FUNCTION public.cp_transaction_location(p_type text, p_status text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN p_type = 'deposit' THEN CASE WHEN p_status = 'approved' THEN 'customer' ELSE 'deposits' END
    WHEN p_status = 'pending' THEN 'withdrawals_pending'
    WHEN p_status = 'approved' THEN 'withdrawals_settled'
    ELSE 'customer'
  END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_line(text,uuid,text,numeric)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- One ledger line of a plan as a four-eyes approval binds and shows it (BoundLine in four-eyes-policy.ts): the account
-- ('customer' with the user id, or a platform code), the token and the signed amount as text (exact in JSON).
CREATE OR REPLACE FUNCTION public.cp_line(p_account text, p_user uuid, p_token text, p_amount numeric)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN p_account = 'customer'
    THEN jsonb_build_object('account', 'customer', 'userId', p_user, 'token', p_token, 'amount', p_amount::text)
    ELSE jsonb_build_object('account', p_account, 'token', p_token, 'amount', p_amount::text)
  END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_move_lines(text,text,uuid,text,numeric)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- `amount` of a customer's `token` from one place (see cp_transaction_location) to another: the two lines of a simple
-- movement, or none when both are the same place.
CREATE OR REPLACE FUNCTION public.cp_move_lines(p_from text, p_to text, p_user uuid, p_token text, p_amount numeric)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN p_from = p_to THEN '[]'::jsonb
    ELSE jsonb_build_array(cp_line(p_from, p_user, p_token, -p_amount), cp_line(p_to, p_user, p_token, p_amount))
  END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_moves_of(jsonb,integer)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The moves of plan lines, for cp_post: a platform account's line goes to the caller's shard of it.
CREATE OR REPLACE FUNCTION public.cp_moves_of(p_lines jsonb, p_shard integer)
 RETURNS cp_move[]
 LANGUAGE sql
AS $function$
  SELECT coalesce(array_agg(ROW(
    CASE WHEN l->>'account' = 'customer' THEN cp_customer_account((l->>'userId')::uuid, l->>'token')
      ELSE cp_platform_account(l->>'account', l->>'token', p_shard) END,
    (l->>'amount')::numeric)::cp_move ORDER BY n), '{}')
  FROM jsonb_array_elements(p_lines) WITH ORDINALITY AS line(l, n)
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_transaction_view(uuid)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A transaction as the admin's answers show it (TransactionView in transactions.repository.ts): its columns, its
-- customer's name and email, its coin's symbol. Amounts as text (exact in JSON).
CREATE OR REPLACE FUNCTION public.cp_transaction_view(p_transaction uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
    'id', t.id, 'seq', t.seq, 'userId', t.user_id, 'type', t.type, 'token', t.token, 'network', t.network,
    'address', t.address, 'coinAmount', t.coin_amount::text, 'usdAmount', t.usd_amount::text, 'price', t.price::text,
    'status', t.status, 'direction', t.direction, 'note', t.note, 'details', t.details, 'createdAt', t.created_at,
    'voidedAt', t.voided_at, 'userName', u.name, 'userEmail', u.email, 'symbol', c.symbol)
  FROM transactions AS t JOIN users AS u ON u.id = t.user_id LEFT JOIN coins AS c ON c.id = t.token
  WHERE t.id = p_transaction
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_token_decimals(text)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Amounts in the texts people read, printed as `describe` and `usdText` in wallet-common.ts print them (the client's
-- way: grouped thousands, the token's decimals, USD with its cents; money-texts.test.ts holds them to the same output).
-- The decimals of a token's quantities (tokenDecimals in money.ts, spec §9).
CREATE OR REPLACE FUNCTION public.cp_token_decimals(p_token text)
 RETURNS integer
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE p_token WHEN 'bitcoin' THEN 8 WHEN 'ethereum' THEN 6 WHEN 'tether' THEN 2 ELSE 3 END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_group_thousands(text)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- "1234567.50" → "1,234,567.50": only the whole part is grouped.
CREATE OR REPLACE FUNCTION public.cp_group_thousands(p_decimal text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT regexp_replace(split_part(p_decimal, '.', 1), '(\d)(?=(\d{3})+$)', '\1,', 'g')
    || CASE WHEN strpos(p_decimal, '.') > 0 THEN '.' || split_part(p_decimal, '.', 2) ELSE '' END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_amount_text(numeric,text)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- "1,234,320.63 USDT": the quantity cut to the token's decimals, with its coin's symbol.
CREATE OR REPLACE FUNCTION public.cp_amount_text(p_quantity numeric, p_token text)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT cp_group_thousands(trunc(p_quantity, cp_token_decimals(p_token))::text) || ' '
    || upper(coalesce((SELECT symbol FROM coins WHERE id = p_token), p_token))
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_usd_text(numeric)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- "$1,234,567.49" (cut to cents; a negative amount: "-$5.00").
CREATE OR REPLACE FUNCTION public.cp_usd_text(p_usd numeric)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN p_usd < 0 THEN '-$' ELSE '$' END || cp_group_thousands(trunc(abs(p_usd), 2)::text)
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_type_label(text)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A transaction's type as people read it ('balance adjustment' for an adjustment).
CREATE OR REPLACE FUNCTION public.cp_type_label(p_type text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE p_type WHEN 'adjustment' THEN 'balance adjustment' ELSE p_type END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_deposit(uuid,uuid,text,text,text,numeric,numeric,numeric,text,timestamp with time zone,uuid,integer,jsonb,jsonb)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A deposit recorded by an admin for an active customer, with its status: it arrives in the platform's deposits
-- account and goes where its status puts it (approved: to the customer; else it stays there and nothing moves), with
-- the transaction row, the notification and the audit entry (p_records, built by the caller). The quantity and price
-- are the caller's: quoted now, or the ones a four-eyes approval bound. Returns the customer's name and email, and the
-- answer stored with the Idempotency-Key (the caller leaves "user":{"name":"","email":""} in it for the customer as
-- read here).
CREATE OR REPLACE FUNCTION public.cp_deposit(p_transaction uuid, p_user uuid, p_token text, p_network text, p_address text, p_quantity numeric, p_usd numeric, p_price numeric, p_status text, p_at timestamp with time zone, p_actor uuid, p_shard integer, p_key jsonb, p_records jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_customer record;
  v_key jsonb := p_key;
BEGIN
  SELECT name, email INTO v_customer FROM users WHERE id = p_user AND role = 'user' AND deactivated_at IS NULL;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CPU01', MESSAGE = 'customer not found';
  END IF;
  IF v_key IS NOT NULL THEN
    v_key := v_key || jsonb_build_object('body', replace(v_key->>'body', '"user":{"name":"","email":""}',
      '"user":{"name":' || to_json(v_customer.name::text)::text || ',"email":' || to_json(v_customer.email::text)::text || '}'));
  END IF;
  PERFORM cp_claim_key(v_key);
  PERFORM cp_require_live_tokens(ARRAY[p_token]);

  PERFORM cp_post('deposit_credit', p_transaction, 'deposit approved', p_actor,
    cp_moves_of(cp_move_lines('deposits', cp_transaction_location('deposit', p_status), p_user, p_token, p_quantity), p_shard));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'deposit', p_token, p_network, p_address, p_quantity, p_usd, p_price, p_status, 'in', NULL, NULL, p_actor, p_at, p_at);
  PERFORM cp_write_records(p_records);
  RETURN jsonb_build_object('userName', v_customer.name, 'userEmail', v_customer.email, 'answer', v_key->>'body');
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_plan_transaction_status(uuid,text,text,text)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- What setting a deposit's or withdrawal's status would do, decided under the transaction's row lock (taken here and
-- held until the caller's commit): {changes, transaction (cp_transaction_view), lines} — the lines move the quantity
-- from where it sits now to where the new status puts it (none: it stays). The four-eyes gate reads it before
-- cp_set_transaction_status applies it. p_expected: the status the caller read (NULL: any); p_tx_hash: the chain
-- transaction id of a withdrawal being approved (NULL: none).
CREATE OR REPLACE FUNCTION public.cp_plan_transaction_status(p_transaction uuid, p_to text, p_expected text, p_tx_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_tx transactions;
  v_to text;
BEGIN
  SELECT * INTO v_tx FROM transactions WHERE id = p_transaction FOR UPDATE;
  IF NOT FOUND OR v_tx.voided_at IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPX01', MESSAGE = 'not found';
  END IF;
  IF v_tx.type NOT IN ('deposit', 'withdrawal') THEN
    RAISE EXCEPTION USING ERRCODE = 'CPX01', MESSAGE = v_tx.type;
  END IF;
  IF p_expected IS NOT NULL AND p_expected <> v_tx.status THEN
    RAISE EXCEPTION USING ERRCODE = 'CPX02', MESSAGE = v_tx.status;
  END IF;
  IF v_tx.status = p_to THEN
    RETURN jsonb_build_object('changes', false, 'transaction', cp_transaction_view(p_transaction), 'lines', '[]'::jsonb);
  END IF;
  IF p_tx_hash IS NOT NULL AND (v_tx.type <> 'withdrawal' OR p_to <> 'approved') THEN
    RAISE EXCEPTION USING ERRCODE = 'CPX03', MESSAGE = 'txHash only when approving a withdrawal';
  END IF;
  v_to := cp_transaction_location(v_tx.type, p_to);
  -- Crediting the customer or making it pending again exposes the token: it must still be supported.
  IF v_to = 'customer' OR p_to = 'pending' THEN
    PERFORM cp_require_live_tokens(ARRAY[v_tx.token]);
  END IF;
  RETURN jsonb_build_object('changes', true, 'transaction', cp_transaction_view(p_transaction),
    'lines', cp_move_lines(cp_transaction_location(v_tx.type, v_tx.status), v_to, v_tx.user_id, v_tx.token, v_tx.coin_amount));
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_set_transaction_status(uuid,text,text,text,text,uuid,integer,jsonb)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A status change (any status to any status on a deposit or withdrawal): the plan above applied — the row's status
-- (and the txHash in its details), the movement (CPI01 when the customer no longer holds what it takes), the
-- customer's notification and the audit entry (p_audit, built by the caller; its `before` is the status found here).
-- p_tx_hash_link: the explorer's page of the txHash, for the notification. Returns {changed, transaction, lines,
-- notification}; already in that status: {changed: false, transaction} and nothing is written.
CREATE OR REPLACE FUNCTION public.cp_set_transaction_status(p_transaction uuid, p_to text, p_expected text, p_tx_hash text, p_tx_hash_link text, p_actor uuid, p_shard integer, p_audit jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_plan jsonb;
  v_tx transactions;
  v_notice jsonb;
BEGIN
  v_plan := cp_plan_transaction_status(p_transaction, p_to, p_expected, p_tx_hash);
  IF NOT (v_plan->>'changes')::boolean THEN
    RETURN jsonb_build_object('changed', false, 'transaction', v_plan->'transaction');
  END IF;
  SELECT * INTO v_tx FROM transactions WHERE id = p_transaction;

  UPDATE transactions SET status = p_to, updated_at = now(),
    details = CASE WHEN p_tx_hash IS NULL THEN details ELSE coalesce(details, '{}'::jsonb) || jsonb_build_object('txHash', p_tx_hash) END
  WHERE id = p_transaction;
  PERFORM cp_post(v_tx.type || '_' || v_tx.status || '_to_' || p_to, p_transaction, 'status ' || v_tx.status || ' → ' || p_to, p_actor,
    cp_moves_of(v_plan->'lines', p_shard));

  v_notice := jsonb_build_object('id', gen_random_uuid(), 'user_id', v_tx.user_id, 'title', 'Transaction ' || p_to,
    'message', format('Your %s of %s (%s) is now %s.', cp_type_label(v_tx.type), cp_amount_text(v_tx.coin_amount, v_tx.token), cp_usd_text(v_tx.usd_amount), p_to)
      || coalesce(' Transaction hash: ' || p_tx_hash || coalesce(' — ' || p_tx_hash_link, ''), ''),
    'status', p_to, 'created_by', p_actor, 'created_at', now());
  PERFORM cp_write_records(jsonb_build_object('notifications', jsonb_build_array(v_notice),
    'audit', jsonb_build_array(p_audit || jsonb_build_object('before', jsonb_build_object('status', v_tx.status)))));
  RETURN jsonb_build_object('changed', true, 'transaction', cp_transaction_view(p_transaction), 'lines', v_plan->'lines', 'notification', v_notice);
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_plan_void_transaction(uuid,text)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- What voiding a transaction would do, decided under its row lock (taken here and held until the caller's commit):
-- {transaction (cp_transaction_view), lines} — the lines take its ledger effect back: a deposit's or withdrawal's
-- quantity from where it sits to where it came from (the deposits account, the customer), a swap both ways back, an
-- adjustment the other way. The tokens it credits to the customer must still be supported. p_expected: the status the
-- caller read (NULL: any).
CREATE OR REPLACE FUNCTION public.cp_plan_void_transaction(p_transaction uuid, p_expected text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_tx transactions;
  v_lines jsonb;
  v_credited text[];
BEGIN
  SELECT * INTO v_tx FROM transactions WHERE id = p_transaction FOR UPDATE;
  IF NOT FOUND OR v_tx.voided_at IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPX01', MESSAGE = 'not found';
  END IF;
  IF p_expected IS NOT NULL AND p_expected <> v_tx.status THEN
    RAISE EXCEPTION USING ERRCODE = 'CPX02', MESSAGE = v_tx.status;
  END IF;
  v_lines := CASE v_tx.type
    WHEN 'deposit' THEN cp_move_lines(cp_transaction_location('deposit', v_tx.status), 'deposits', v_tx.user_id, v_tx.token, v_tx.coin_amount)
    WHEN 'withdrawal' THEN cp_move_lines(cp_transaction_location('withdrawal', v_tx.status), 'customer', v_tx.user_id, v_tx.token, v_tx.coin_amount)
    WHEN 'swap' THEN
      cp_move_lines('customer', 'swap_pool', v_tx.user_id, v_tx.details->>'toToken', (v_tx.details->>'toCoinAmount')::numeric)
      || cp_move_lines('swap_pool', 'customer', v_tx.user_id, v_tx.token, v_tx.coin_amount)
    ELSE CASE WHEN v_tx.direction = 'in'
      THEN cp_move_lines('customer', 'adjustments', v_tx.user_id, v_tx.token, v_tx.coin_amount)
      ELSE cp_move_lines('adjustments', 'customer', v_tx.user_id, v_tx.token, v_tx.coin_amount) END
  END;
  SELECT array_agg(DISTINCT l->>'token') INTO v_credited FROM jsonb_array_elements(v_lines) AS l
  WHERE l->>'account' = 'customer' AND (l->>'amount')::numeric > 0;
  IF v_credited IS NOT NULL THEN
    PERFORM cp_require_live_tokens(v_credited);
  END IF;
  RETURN jsonb_build_object('transaction', cp_transaction_view(p_transaction), 'lines', v_lines);
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_void_transaction(uuid,text,uuid,integer,jsonb)
-- Created in drizzle/0014_admin_transaction_functions.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A void: the plan above applied — the row marked voided (hidden from lists, kept in the ledger and the audit), the
-- reversing movement (CPI01 when the customer no longer holds what it takes back), the customer's notification and the
-- audit entry (p_audit, built by the caller; the status is added here). Returns {transaction, lines, notification}.
CREATE OR REPLACE FUNCTION public.cp_void_transaction(p_transaction uuid, p_expected text, p_actor uuid, p_shard integer, p_audit jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_plan jsonb;
  v_tx transactions;
  v_notice jsonb;
BEGIN
  v_plan := cp_plan_void_transaction(p_transaction, p_expected);
  SELECT * INTO v_tx FROM transactions WHERE id = p_transaction;

  UPDATE transactions SET voided_at = now(), voided_by = p_actor, updated_at = now() WHERE id = p_transaction;
  PERFORM cp_post(v_tx.type || '_void', p_transaction, 'voided by an administrator', p_actor, cp_moves_of(v_plan->'lines', p_shard));

  v_notice := jsonb_build_object('id', gen_random_uuid(), 'user_id', v_tx.user_id, 'title', 'Transaction cancelled',
    'message', format('Your %s of %s (%s) was cancelled by an administrator.', cp_type_label(v_tx.type), cp_amount_text(v_tx.coin_amount, v_tx.token), cp_usd_text(v_tx.usd_amount)),
    'status', NULL, 'created_by', p_actor, 'created_at', now());
  PERFORM cp_write_records(jsonb_build_object('notifications', jsonb_build_array(v_notice),
    'audit', jsonb_build_array(p_audit || jsonb_build_object(
      'before', jsonb_build_object('status', v_tx.status, 'voided', false),
      'after', coalesce(p_audit->'after', '{}'::jsonb) || jsonb_build_object('status', v_tx.status)))));
  RETURN jsonb_build_object('transaction', v_plan->'transaction', 'lines', v_plan->'lines', 'notification', v_notice);
END
$function$;
