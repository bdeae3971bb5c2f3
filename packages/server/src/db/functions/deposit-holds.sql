-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "deposit-holds" family: the current definition of each function (and composite type) first created by
--   drizzle/0063_deposit_holds.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0063_deposit_holds.sql:
--
-- Deposit holds (issue 35): a chain deposit that would pass the customer's deposit limit for the day or the 30 days
-- (KYC_LIMITS on), or that was sent from a sanctioned address (sanctions_hits kind 'deposit'), is not credited to the
-- balance when it is confirmed: it is held (chain_deposits.state 'held', hold 'limit' or 'sanctions'), its History row
-- stays pending with the hold in its details, and the customer is told why. The coins stay where a confirming
-- deposit's are (the deposits platform account has not paid them out), so a reorganisation sends a held deposit back
-- to seen like a confirming one, and nothing is to be undone. A hold is released — credited exactly as
-- cp_credit_chain_deposit credits — by cp_release_deposit_hold: for 'limit' by the watcher once the limit allows it
-- (a raised level, a raised limit, or the 24 hours / 30 days rolled on), or by an admin (audited; four-eyes when on,
-- for the amount); a 'sanctions' hold only by an admin.
-- The limit rule stays written once: cp_limit_refusal(user, kind, usd) answers what cp_require_within_limits raised
-- (NULL within the limits), and cp_require_within_limits raises it; the crediting and the release ask it under the
-- same lock of the customer's row.
-- The sanctions list is held in each instance's memory, dropped on a NOTIFY from sanctioned_addresses' trigger
-- (coinpurse_sanctions_changed): screening a send costs no database read.
-- Code of its own:
--   CPD03  the deposit is not held (any more)   MESSAGE: 'not found', 'not in the chain', or its state

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_limit_refusal(uuid,text,numeric)
-- Created in drizzle/0063_deposit_holds.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The limit rule of cp_require_within_limits (0056), answered instead of raised: NULL when p_usd fits the level's
-- limits of p_kind (or KYC_LIMITS is off), else the refusal {"kind", "period", "level", "limitUsd", "leftUsd"}. Locks
-- the customer's row FOR NO KEY UPDATE when the limits are on (see 0056).
CREATE OR REPLACE FUNCTION public.cp_limit_refusal(p_user uuid, p_kind text, p_usd numeric)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_level smallint;
  v_limits verification_limits%ROWTYPE;
  v_day numeric;
  v_month numeric;
  v_day_used numeric := 0;
  v_month_used numeric := 0;
BEGIN
  IF NOT coalesce((SELECT limits_enabled FROM verification_settings WHERE id = 1), false) THEN
    RETURN NULL;
  END IF;
  SELECT verification_level INTO v_level FROM users WHERE id = p_user FOR NO KEY UPDATE;
  SELECT * INTO v_limits FROM verification_limits WHERE level = coalesce(v_level, 0);
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF p_kind = 'withdrawal' AND v_limits.withdrawal_single IS NOT NULL AND p_usd > v_limits.withdrawal_single THEN
    RETURN json_build_object('kind', p_kind, 'period', 'single', 'level', v_level,
      'limitUsd', v_limits.withdrawal_single::text, 'leftUsd', v_limits.withdrawal_single::text);
  END IF;
  v_day := CASE p_kind WHEN 'deposit' THEN v_limits.deposit_day WHEN 'withdrawal' THEN v_limits.withdrawal_day WHEN 'swap' THEN v_limits.swap_day END;
  v_month := CASE p_kind WHEN 'deposit' THEN v_limits.deposit_month WHEN 'withdrawal' THEN v_limits.withdrawal_month WHEN 'swap' THEN v_limits.swap_month END;
  IF v_day IS NULL AND v_month IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT u.day_usd, u.month_usd INTO v_day_used, v_month_used FROM cp_verification_usage(p_user) u WHERE u.kind = p_kind;
  v_day_used := coalesce(v_day_used, 0);
  v_month_used := coalesce(v_month_used, 0);
  IF v_day IS NOT NULL AND v_day_used + p_usd > v_day THEN
    RETURN json_build_object('kind', p_kind, 'period', 'day', 'level', v_level,
      'limitUsd', v_day::text, 'leftUsd', greatest(v_day - v_day_used, 0)::text);
  END IF;
  IF v_month IS NOT NULL AND v_month_used + p_usd > v_month THEN
    RETURN json_build_object('kind', p_kind, 'period', 'month', 'level', v_level,
      'limitUsd', v_month::text, 'leftUsd', greatest(v_month - v_month_used, 0)::text);
  END IF;
  RETURN NULL;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_release_deposit_hold(uuid,uuid,integer,jsonb)
-- Created in drizzle/0063_deposit_holds.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A held deposit released: credited as cp_credit_chain_deposit credits (deposits → customer, the History row
-- approved, its "hold" kept as "heldFor"), with p_records (notification, mail, audit). Under the deposit's and its
-- History row's locks it must still be held, in a block the watcher keeps (CPD03 otherwise: 'not found', 'not in the
-- chain', or its state). p_actor NULL: the watcher's pass, which releases only a 'limit' hold and only when the
-- limit now allows it (cp_limit_refusal, under the customer's lock) — else it returns false and writes nothing. An
-- admin (p_actor) releases either kind. A History row an admin settled by hand meanwhile: rejected or voided, the
-- deposit is dropped; approved, it is credited without moving again (as the crediting does). Returns true when it
-- moved the coins.
CREATE OR REPLACE FUNCTION public.cp_release_deposit_hold(p_deposit uuid, p_actor uuid, p_shard integer, p_records jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_deposit chain_deposits%ROWTYPE;
  v_row transactions%ROWTYPE;
BEGIN
  SELECT * INTO v_deposit FROM chain_deposits WHERE id = p_deposit FOR UPDATE;
  IF v_deposit.id IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPD03', MESSAGE = 'not found';
  END IF;
  IF v_deposit.state <> 'held' THEN
    RAISE EXCEPTION USING ERRCODE = 'CPD03', MESSAGE = v_deposit.state;
  END IF;
  IF v_deposit.block_height IS NULL OR NOT EXISTS (
    SELECT 1 FROM chain_blocks WHERE network = v_deposit.network AND height = v_deposit.block_height AND block_hash = v_deposit.block_hash
  ) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPD03', MESSAGE = 'not in the chain';
  END IF;
  SELECT * INTO v_row FROM transactions WHERE id = v_deposit.transaction_id FOR UPDATE;
  IF v_row.id IS NULL OR v_row.status = 'rejected' OR v_row.voided_at IS NOT NULL THEN
    UPDATE chain_deposits SET state = 'dropped', updated_at = now() WHERE id = p_deposit;
    RETURN false;
  END IF;
  IF p_actor IS NULL AND (v_deposit.hold <> 'limit' OR cp_limit_refusal(v_deposit.user_id, 'deposit', v_row.usd_amount) IS NOT NULL) THEN
    RETURN false;
  END IF;

  UPDATE chain_deposits SET state = 'credited', credited_at = now(), released_at = now(), released_by = p_actor, updated_at = now()
  WHERE id = p_deposit;
  UPDATE transactions SET status = 'approved', details = (coalesce(details, '{}'::jsonb) - 'hold') || jsonb_build_object('heldFor', v_deposit.hold),
    updated_at = now()
  WHERE id = v_row.id;
  IF v_row.status = 'approved' THEN
    RETURN false;
  END IF;
  PERFORM cp_post('chain_deposit_credit', v_row.id, 'chain deposit ' || v_deposit.txid || ':' || v_deposit.output_index || ' released', p_actor,
    cp_transfer(cp_platform_account('deposits', v_deposit.token, p_shard), cp_customer_account(v_deposit.user_id, v_deposit.token), v_deposit.amount));
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function coinpurse_sanctions_changed()
-- Created in drizzle/0063_deposit_holds.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The sanctions list is held in each instance's memory (SanctionsListCache: a send is screened without a database
-- read); any change to it announces itself on the coinpurse_sanctions channel when the changing transaction commits
-- (an upload or a load of SANCTIONS_LIST_FILE replaces it in one transaction: one notification), and every instance
-- drops its copy.
CREATE OR REPLACE FUNCTION public.coinpurse_sanctions_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_notify('coinpurse_sanctions', '');
  RETURN NULL;
END
$function$;

CREATE TRIGGER sanctioned_addresses_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.sanctioned_addresses FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_sanctions_changed();
