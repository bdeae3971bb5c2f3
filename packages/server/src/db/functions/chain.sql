-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "chain" family: the current definition of each function (and composite type) first created by
--   drizzle/0016_chain_functions.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0016_chain_functions.sql:
--
-- The chain jobs' money operations: a deposit from the chain credited once it has its confirmations (issue 24), and a
-- payout that will never be paid returned to the customer (issue 25). Each is one call that takes its row locks itself
-- and decides under them; TypeScript reads what its texts need, writes the texts and rows, and announces what
-- committed. Neither refuses with a code of its own: a call that finds nothing (any more) to do writes nothing of the
-- money and returns false, so a replayed block, a restart or a second instance never moves money twice.

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_credit_chain_deposit(uuid,integer,integer,integer,jsonb,jsonb)
-- Created in drizzle/0016_chain_functions.sql.
-- Changed in drizzle/0063_deposit_holds.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A deposit from the chain, credited once. Under its row lock the deposit must still be confirming (not credited,
-- dropped, or sent back to seen by a reorganisation), in a block the watcher still keeps as part of the best chain,
-- with p_confirmations (the count the caller's texts state; at least the p_required of the network) reached at the
-- watcher's cursor. Its History row then settles with it:
--   pending, not voided      → approved, the movement deposits → customer, the notification, mail and audit rows
--                              (p_records): returns true;
--   approved by an admin     → the deposit is credited and nothing moves again (the admin's entry moved it once);
--   rejected or voided       → the deposit is dropped, never credited.
-- A deposit without its History row (written with it when it is found) is left confirming.
--
-- Changed in drizzle/0063_deposit_holds.sql:
-- cp_credit_chain_deposit as in 0016/0024, and held instead of credited when its History row is still pending and
-- either screening found a sanctioned sending address (sanctions_hits kind 'deposit' of this deposit: hold
-- 'sanctions') or its USD value (the History row's) would pass the customer's deposit limit (cp_limit_refusal: hold
-- 'limit'). Held: the deposit 'held' with its confirmations, the History row's details get {"hold"}, nothing moves,
-- and p_hold_records->'<hold>' is written (the customer's notification, for sanctions the admins' too). Returns what
-- it did: 'credited', 'held', or NULL (nothing to do, an admin's hand settlement, or dropped).
CREATE OR REPLACE FUNCTION public.cp_credit_chain_deposit(p_deposit uuid, p_confirmations integer, p_required integer, p_shard integer, p_records jsonb, p_hold_records jsonb)
 RETURNS text
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_deposit chain_deposits%ROWTYPE;
  v_row transactions%ROWTYPE;
  v_cursor_height bigint;
  v_hold text;
BEGIN
  SELECT * INTO v_deposit FROM chain_deposits WHERE id = p_deposit FOR UPDATE;
  IF v_deposit.id IS NULL OR v_deposit.state <> 'confirming' OR v_deposit.block_height IS NULL THEN
    RETURN NULL;
  END IF;
  IF NOT EXISTS (
    SELECT 1 FROM chain_blocks WHERE network = v_deposit.network AND height = v_deposit.block_height AND block_hash = v_deposit.block_hash
  ) THEN
    RETURN NULL;
  END IF;
  SELECT height INTO v_cursor_height FROM chain_cursors WHERE network = v_deposit.network;
  IF p_confirmations < p_required OR v_cursor_height IS NULL OR v_cursor_height - v_deposit.block_height + 1 < p_confirmations THEN
    RETURN NULL;
  END IF;
  SELECT * INTO v_row FROM transactions WHERE id = v_deposit.transaction_id FOR UPDATE;
  IF v_row.id IS NULL THEN
    RETURN NULL;
  END IF;

  IF v_row.status = 'rejected' OR v_row.voided_at IS NOT NULL THEN
    UPDATE chain_deposits SET state = 'dropped', confirmations = p_confirmations, updated_at = now() WHERE id = p_deposit;
    UPDATE transactions SET details = coalesce(details, '{}'::jsonb) || jsonb_build_object('confirmations', p_confirmations), updated_at = now()
    WHERE id = v_row.id;
    RETURN NULL;
  END IF;

  -- The holds: sanctions first (never released by a limit), then the deposit limit.
  IF v_row.status = 'pending' THEN
    IF EXISTS (SELECT 1 FROM sanctions_hits WHERE chain_deposit_id = p_deposit AND kind = 'deposit') THEN
      v_hold := 'sanctions';
    ELSIF cp_limit_refusal(v_deposit.user_id, 'deposit', v_row.usd_amount) IS NOT NULL THEN
      v_hold := 'limit';
    END IF;
    IF v_hold IS NOT NULL THEN
      UPDATE chain_deposits SET state = 'held', hold = v_hold, held_at = now(), confirmations = p_confirmations, updated_at = now() WHERE id = p_deposit;
      UPDATE transactions SET details = coalesce(details, '{}'::jsonb) || jsonb_build_object('confirmations', p_confirmations, 'hold', v_hold), updated_at = now()
      WHERE id = v_row.id;
      PERFORM cp_write_records(p_hold_records->v_hold);
      RETURN 'held';
    END IF;
  END IF;

  UPDATE chain_deposits SET state = 'credited', confirmations = p_confirmations, credited_at = now(), updated_at = now() WHERE id = p_deposit;
  UPDATE transactions SET status = 'approved', details = coalesce(details, '{}'::jsonb) || jsonb_build_object('confirmations', p_confirmations), updated_at = now()
  WHERE id = v_row.id;
  IF v_row.status = 'approved' THEN
    RETURN NULL;
  END IF;

  PERFORM cp_post('chain_deposit_credit', v_row.id, 'chain deposit ' || v_deposit.txid || ':' || v_deposit.output_index, NULL,
    cp_transfer(cp_platform_account('deposits', v_deposit.token, p_shard), cp_customer_account(v_deposit.user_id, v_deposit.token), v_deposit.amount));
  PERFORM cp_write_records(p_records);
  RETURN 'credited';
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_fail_payout(uuid,text,jsonb,integer,jsonb)
-- Created in drizzle/0016_chain_functions.sql.
-- Changed in drizzle/0023_cold_payout_abandon.sql, drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A payout that will never be signed (nothing of it went to the chain) fails with its reason. Under its row lock it
-- must still be unsigned (approved or awaiting funds): a payout signed since may be on the chain and is never failed.
-- The payout's fields the customer sees (p_payout_details, merged into the withdrawal's details) go with it. When the
-- withdrawal is still approved and not voided, the held amount returns to the customer by a reversal entry
-- (withdrawals_settled → customer, with the reason), the withdrawal is rejected, with the notification, mail and audit
-- rows (p_records): returns true.
--
-- Changed in drizzle/0023_cold_payout_abandon.sql:
-- A cold payout can be abandoned (issue 25, "Hot and cold"): an admin may fail a withdrawal that waits for its cold
-- signature, the held amount returned as for a payout the hot signer refused. Nothing signed is stored for it (a signed
-- upload moves it to signed first), and the app gave back what its prepared transaction reserved (its inputs or nonce)
-- only after checking none of it is on the chain. So cp_fail_payout, unchanged otherwise (0016), also takes
-- awaiting_cold_signature; a payout signed since (hot or cold) may be on the chain and is still never failed.
CREATE OR REPLACE FUNCTION public.cp_fail_payout(p_payout uuid, p_reason text, p_payout_details jsonb, p_shard integer, p_records jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_payout payouts%ROWTYPE;
  v_withdrawal transactions%ROWTYPE;
BEGIN
  SELECT * INTO v_payout FROM payouts WHERE id = p_payout FOR UPDATE;
  IF v_payout.id IS NULL OR v_payout.state NOT IN ('approved', 'awaiting_funds', 'awaiting_cold_signature') THEN
    RETURN false;
  END IF;
  SELECT * INTO v_withdrawal FROM transactions WHERE id = v_payout.transaction_id FOR UPDATE;

  UPDATE payouts SET state = 'failed', last_error = p_reason, attempts = attempts + 1, updated_at = now() WHERE id = p_payout;
  UPDATE transactions SET details = coalesce(details, '{}'::jsonb) || p_payout_details WHERE id = v_payout.transaction_id;
  IF v_withdrawal.id IS NULL OR v_withdrawal.status <> 'approved' OR v_withdrawal.voided_at IS NOT NULL THEN
    RETURN false;
  END IF;

  PERFORM cp_post('payout_failed_reversal', v_withdrawal.id, left('payout failed: ' || p_reason, 500), NULL,
    cp_transfer(cp_platform_account('withdrawals_settled', v_withdrawal.token, p_shard), cp_customer_account(v_withdrawal.user_id, v_withdrawal.token), v_withdrawal.coin_amount));
  UPDATE transactions SET status = 'rejected', updated_at = now() WHERE id = v_withdrawal.id;
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$function$;
