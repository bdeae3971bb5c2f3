-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "sweeps" family: the current definition of each function (and composite type) first created by
--   drizzle/0021_sweeps.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0021_sweeps.sql:
--
-- Sweeps (EVM family, issue 25): coins on customers' deposit addresses moved to the hot address, which pays the
-- withdrawals. A sweep never changes a customer's balance: it is a movement between platform accounts, recorded once
-- its transaction has its confirmations. Code of its own:
--   CPW01  a sweep's recorded fees are not what its row allows      MESSAGE: why
--
-- The platform accounts hold the other side of the customers' balances: a platform balance of -X says the platform
-- holds X there. `deposits` is -X after X was credited from the deposit addresses; a sweep of S to the hot address
-- gives back S to `deposits` and takes S on `hot_wallet` (the hot address now holds it), and the gas it burnt is the
-- platform's cost on `network_fees` (a debit, like any expense), taken from whichever address paid it.

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_base_to_coins(numeric,integer)
-- Created in drizzle/0021_sweeps.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Base units as coins, exactly (numeric division keeps the dividend's 18 decimals; a base amount has no more).
CREATE OR REPLACE FUNCTION public.cp_base_to_coins(p_base numeric, p_decimals integer)
 RETURNS numeric
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT p_base::numeric(78, 18) / (10::numeric ^ p_decimals)
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_record_sweep(uuid,integer,boolean,numeric,numeric,integer,jsonb)
-- Created in drizzle/0021_sweeps.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A sweep whose transaction has its confirmations, recorded once. Under its row lock the sweep must be broadcast
-- (not recorded yet) with p_confirmations reached (at least its required count); otherwise nothing is written and
-- false is returned (a replayed run, a second instance). The fees are the ones paid, read from the receipts: p_fee_base
-- of the sweep, p_topup_fee_base of its top-up (given exactly when the sweep had one), never below zero (CPW01).
-- Then, in one journal entry that moves no customer account:
--   the amount swept (unless the transaction reverted, p_succeeded false)  hot_wallet → deposits, in the token;
--   the sweep's gas, paid by the deposit address                           network_fees → deposits, in the native coin;
--   the top-up, sent by the hot address to the deposit address              deposits → hot_wallet, in the native coin;
--   the top-up's gas, paid by the hot address                               network_fees → hot_wallet, in the native coin;
-- the sweep becomes completed (failed: it reverted, only the gas was spent), with the audit row (p_records): true.
CREATE OR REPLACE FUNCTION public.cp_record_sweep(p_sweep uuid, p_confirmations integer, p_succeeded boolean, p_fee_base numeric, p_topup_fee_base numeric, p_shard integer, p_records jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_sweep sweeps%ROWTYPE;
  v_moves cp_move[] := ARRAY[]::cp_move[];
BEGIN
  SELECT * INTO v_sweep FROM sweeps WHERE id = p_sweep FOR UPDATE;
  IF v_sweep.id IS NULL OR v_sweep.state <> 'broadcast' THEN
    RETURN false;
  END IF;
  IF p_confirmations < v_sweep.required_confirmations THEN
    RETURN false;
  END IF;
  IF p_fee_base IS NULL OR p_fee_base < 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CPW01', MESSAGE = 'the sweep fee must be zero or more';
  END IF;
  IF (v_sweep.topup_txid IS NULL) <> (p_topup_fee_base IS NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPW01', MESSAGE = CASE WHEN v_sweep.topup_txid IS NULL THEN 'the sweep had no top-up' ELSE 'the top-up fee is missing' END;
  END IF;
  IF p_topup_fee_base < 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CPW01', MESSAGE = 'the top-up fee must be zero or more';
  END IF;

  UPDATE sweeps SET state = CASE WHEN p_succeeded THEN 'completed' ELSE 'failed' END, confirmations = p_confirmations, fee_base = p_fee_base,
    topup_fee_base = p_topup_fee_base, last_error = CASE WHEN p_succeeded THEN NULL ELSE 'the sweep transaction reverted on chain: only its gas was spent' END,
    completed_at = now(), updated_at = now()
  WHERE id = p_sweep;

  IF p_succeeded THEN
    v_moves := v_moves || cp_transfer(cp_platform_account('hot_wallet', v_sweep.token, p_shard), cp_platform_account('deposits', v_sweep.token, p_shard),
      cp_base_to_coins(v_sweep.amount_base, v_sweep.decimals));
  END IF;
  v_moves := v_moves || cp_transfer(cp_platform_account('network_fees', v_sweep.native_token, p_shard), cp_platform_account('deposits', v_sweep.native_token, p_shard),
    cp_base_to_coins(p_fee_base, v_sweep.native_decimals));
  IF v_sweep.topup_txid IS NOT NULL THEN
    v_moves := v_moves
      || cp_transfer(cp_platform_account('deposits', v_sweep.native_token, p_shard), cp_platform_account('hot_wallet', v_sweep.native_token, p_shard),
        cp_base_to_coins(v_sweep.topup_amount_base, v_sweep.native_decimals))
      || cp_transfer(cp_platform_account('network_fees', v_sweep.native_token, p_shard), cp_platform_account('hot_wallet', v_sweep.native_token, p_shard),
        cp_base_to_coins(p_topup_fee_base, v_sweep.native_decimals));
  END IF;
  PERFORM cp_post('chain_sweep', NULL, left('sweep ' || v_sweep.txid || ' of ' || v_sweep.address || ' on ' || v_sweep.network, 500), NULL, v_moves);
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$function$;
