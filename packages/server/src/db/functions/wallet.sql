-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "wallet" family: the current definition of each function (and composite type) first created by
--   drizzle/0013_wallet_functions.sql
--   drizzle/0065_swap_group_commit.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0013_wallet_functions.sql:
--
-- The customer's money operations: a send (a withdrawal request, held until it is paid) and a swap. Each is one call
-- and one round trip; TypeScript quotes the prices, computes the quantities and writes the texts, and maps the raised
-- codes to its errors (see the header of 0012_ledger_core.sql). Codes of their own:
--   CPS01  two-factor sign-in is on and no fresh code was checked
--   CPA01  the address allowlist is on and the destination is not in the address book
--   CPA02  the address book entry is still on hold      MESSAGE: {"label", "usableAtMs"}

-- From the header of drizzle/0065_swap_group_commit.sql:
--
-- Group commit of swaps (issue 36). The swaps an instance receives while its earlier ones are being written go to
-- PostgreSQL together: one call of cp_swap_batch, one round trip, one transaction, one commit for the batch. Each swap
-- is still cp_swap with every rule, in a subtransaction of its own: a swap refused (or failing) rolls back alone, and its
-- SQLSTATE and message come back in its place ({"state", "message"}; {} for a swap written); the others commit
-- together. The caller (src/modules/ledger/group-commit.ts) keeps a batch to at most 32 swaps (PostgreSQL keeps 64
-- subtransactions per transaction in shared memory before every snapshot must look them up elsewhere), never sends
-- one customer's swaps in two batches at once, and runs a swap answered with a deadlock again.
-- Each element: cp_swap's 19 values in its parameters' order (jsonb ones as JSON, the others as JSON strings or numbers).

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_second_factor(uuid,boolean)
-- Created in drizzle/0013_wallet_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- CPS01 when the user has two-factor sign-in on and the caller did not check a code for this request.
CREATE OR REPLACE FUNCTION public.cp_require_second_factor(p_user uuid, p_code_checked boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT p_code_checked AND EXISTS (SELECT 1 FROM two_factor WHERE user_id = p_user AND enabled_at IS NOT NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPS01', MESSAGE = 'second factor required';
  END IF;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_send_allowed(uuid,text,text,text,text)
-- Created in drizzle/0013_wallet_functions.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- With the user's address allowlist on, a send goes only to a destination saved in their address book (memo
-- included) whose hold after saving has ended: CPA01 / CPA02.
CREATE OR REPLACE FUNCTION public.cp_require_send_allowed(p_user uuid, p_token text, p_network text, p_address text, p_memo text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_entry record;
BEGIN
  IF NOT coalesce((SELECT allowlist_enabled FROM withdrawal_settings WHERE user_id = p_user), false) THEN
    RETURN;
  END IF;
  SELECT label, usable_at INTO v_entry FROM address_book
  WHERE user_id = p_user AND token = p_token AND network = p_network AND address = p_address AND coalesce(memo, '') = coalesce(p_memo, '')
  LIMIT 1;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CPA01', MESSAGE = '';
  END IF;
  IF v_entry.usable_at > now() THEN
    RAISE EXCEPTION USING ERRCODE = 'CPA02',
      MESSAGE = json_build_object('label', v_entry.label, 'usableAtMs', floor(extract(epoch FROM v_entry.usable_at) * 1000))::text;
  END IF;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_send(uuid,uuid,text,text,text,text,numeric,numeric,numeric,jsonb,timestamp with time zone,boolean,integer,integer,jsonb,jsonb,numeric)
-- Created in drizzle/0013_wallet_functions.sql.
-- Changed in drizzle/0050_fees.sql, drizzle/0056_verification_limits.sql, drizzle/0058_compliance.sql, drizzle/0062_withdrawal_fee_modes.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A send: the customer's quantity moves to the pending withdrawals (until an admin or the payout job settles or
-- rejects it), with the pending withdrawal row, the notification, the audit entry and the security mail.
--
-- Changed in drizzle/0050_fees.sql:
-- A send: the customer's quantity moves to the pending withdrawals (until an admin or the payout job settles or
-- rejects it), with the pending withdrawal row, the notification, the audit entry and the security mail. Since 0050:
-- the schedule's withdrawal fee (p_fee, which the caller read: CPF01 when it changed, CPF02 when it takes the whole
-- amount) goes to the revenue account and the rest (p_quantity − p_fee, the row's coin_amount) is held and paid out;
-- no withdrawal while the house position of the token is below its minimum.
--
-- Changed in drizzle/0056_verification_limits.sql:
-- cp_send and cp_swap as in 0050 (fees), with the limit rule after the price checks (before anything moves).
--
-- Changed in drizzle/0058_compliance.sql:
-- cp_send and cp_swap as in 0056 (fees and limits), refused while the account is frozen (after the limit rule).
-- cp_send no longer checks the house position: a withdrawal pays out of holdings what it takes off what is owed, so it
-- cannot lower the position, and a reading older than the customer's last deposit must not keep their coins in.
--
-- Changed in drizzle/0062_withdrawal_fee_modes.sql:
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

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_swap(uuid,uuid,text,text,numeric,numeric,numeric,numeric,numeric,text,jsonb,timestamp with time zone,integer,integer,jsonb,jsonb,uuid,numeric,numeric)
-- Created in drizzle/0013_wallet_functions.sql.
-- Changed in drizzle/0050_fees.sql, drizzle/0056_verification_limits.sql, drizzle/0058_compliance.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A swap at the quoted prices: the customer's `from` quantity goes to the swap pool, the pool pays out the `to`
-- quantity, with the swap row and the audit entry.
--
-- Changed in drizzle/0050_fees.sql:
-- A swap at the quoted prices: the customer's `from` quantity goes to the swap pool, the pool pays out the `to`
-- quantity, with the swap row and the audit entry. Since 0050: priced by a quote (p_quote: its numbers, once, before it
-- expires) or now (the prices current and the schedule's terms); the house's spread and fee (p_spread_quantity,
-- p_fee_quantity, in the `to` token) go from the pool to the revenue accounts; the house must still hold the `to`
-- token it pays out (its position).
CREATE OR REPLACE FUNCTION public.cp_swap(p_transaction uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_to_quantity numeric, p_usd numeric, p_from_price numeric, p_to_price numeric, p_note text, p_details jsonb, p_at timestamp with time zone, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb, p_quote uuid, p_spread_quantity numeric, p_fee_quantity numeric)
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
  PERFORM cp_require_unfrozen(p_user);

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

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_swap_batch(jsonb)
-- Created in drizzle/0065_swap_group_commit.sql.
-- ---------------------------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.cp_swap_batch(p_swaps jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_swap jsonb;
  v_results jsonb[] := '{}';
BEGIN
  FOR v_swap IN SELECT value FROM jsonb_array_elements(p_swaps) LOOP
    BEGIN
      PERFORM cp_swap((v_swap->>0)::uuid, (v_swap->>1)::uuid, v_swap->>2, v_swap->>3, (v_swap->>4)::numeric,
        (v_swap->>5)::numeric, (v_swap->>6)::numeric, (v_swap->>7)::numeric, (v_swap->>8)::numeric, v_swap->>9,
        nullif(v_swap->10, 'null'), (v_swap->>11)::timestamptz, (v_swap->>12)::int, (v_swap->>13)::int,
        nullif(v_swap->14, 'null'), nullif(v_swap->15, 'null'), (v_swap->>16)::uuid, (v_swap->>17)::numeric,
        (v_swap->>18)::numeric);
      v_results := v_results || '{}'::jsonb;
    EXCEPTION WHEN OTHERS THEN
      v_results := v_results || jsonb_build_object('state', SQLSTATE, 'message', SQLERRM);
    END;
  END LOOP;
  RETURN to_jsonb(v_results);
END
$function$;
