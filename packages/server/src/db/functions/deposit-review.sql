-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "deposit-review" family: the current definition of each function (and composite type) first created by
--   drizzle/0017_deposit_review.sql
--   drizzle/0061_dropped_deposits.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0017_deposit_review.sql:
--
-- The rest of the deposits from the chain (issue 24): a destination tag per customer on the memo networks (xrp,
-- stellar), a deposit orphaned before credit and never mined again dropped after CHAIN_<NETWORK>_DROP_AFTER_BLOCKS,
-- and an admin's decision on a credited deposit whose block was orphaned (take it back, or keep it and accept the
-- loss). TypeScript reads what its texts need, writes the texts and rows, decides four-eyes (reading the reversal's
-- plan under its locks first) and maps the raised codes to its errors (see the header of 0012_ledger_core.sql). Codes
-- of their own:
--   CPD01  the deposit is not waiting for an admin's decision   MESSAGE: 'not found', 'not flagged', or
--                                                                'resolved: <taken_back|kept>'
--   CPD02  its History row was rejected or deleted by hand       (nothing left to take back)
-- Taking back what the customer no longer holds raises cp_post's CPI01 and nothing is written.

-- From the header of drizzle/0061_dropped_deposits.sql:
--
-- Deposits dropped before they confirmed (issue 31, item 15), and notifications that name their transaction (item 4).
--
-- A payment seen in the mempool and then replaced by a conflicting transaction (RBF, a double spend) stayed "pending,
-- 0 confirmations" in History forever. The watcher now drops a seen deposit (never in a block, not orphaned) when
-- its node no longer has the transaction (neither in the mempool nor in the chain: replaced or conflicted), or when it
-- was not mined within CHAIN_<NETWORK>_UNMINED_DROP_AFTER_BLOCKS of the height where it was first seen
-- (chain_deposits.seen_at_height): cp_drop_unmined_chain_deposit, under the deposit's row lock, like
-- cp_drop_chain_deposit for a deposit orphaned and never mined again. Nothing is credited for a dropped deposit: its
-- History row is rejected (pending → rejected moves nothing) and marked `details.dropped` = the reason
-- (chain_deposits.drop_reason too). If the payment is mined after all (a reorganisation, a window too short), the
-- watcher's record of its block re-opens the History row it rejected itself (rejected with `details.dropped` →
-- pending; an admin's own decision is never re-opened), and cp_credit_chain_deposit credits it once, as any deposit
-- (that function is unchanged). cp_drop_chain_deposit now marks its rejection the same way ('orphaned').
--
-- The webhook event deposit.dropped: a deposit's History row rejected by the watcher's drop.
-- notifications.transaction_id: the History row a notification is about (cp_write_records writes it when given).
-- No codes of their own.

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_drop_chain_deposit(uuid,integer,text,jsonb)
-- Created in drizzle/0017_deposit_review.sql.
-- Changed in drizzle/0024_money_generic_plans.sql, drizzle/0061_dropped_deposits.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A deposit orphaned before credit and not mined again (still seen, in no block) once the watcher's cursor is
-- p_drop_after blocks past the height where it was orphaned: dropped, under its row lock. Its History row, when still
-- pending, is rejected with p_note and the notification (p_records): returns true. A History row an admin settled by
-- hand meanwhile stays as they left it (false). Anything else (mined again, credited, not due yet): false, nothing
-- written — a replayed poll or a second instance drops nothing twice.
--
-- Changed in drizzle/0061_dropped_deposits.sql:
-- cp_drop_chain_deposit (0017, 0024) records why (drop_reason 'orphaned') and marks the History row it rejects
-- (details.dropped), so that a payment mined after all is credited; otherwise unchanged.
CREATE OR REPLACE FUNCTION public.cp_drop_chain_deposit(p_deposit uuid, p_drop_after integer, p_note text, p_records jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_deposit chain_deposits%ROWTYPE;
  v_row transactions%ROWTYPE;
  v_cursor_height bigint;
BEGIN
  SELECT * INTO v_deposit FROM chain_deposits WHERE id = p_deposit FOR UPDATE;
  IF v_deposit.id IS NULL OR v_deposit.state <> 'seen' OR v_deposit.block_height IS NOT NULL OR v_deposit.orphaned_at_height IS NULL THEN
    RETURN false;
  END IF;
  SELECT height INTO v_cursor_height FROM chain_cursors WHERE network = v_deposit.network;
  IF v_cursor_height IS NULL OR v_cursor_height - v_deposit.orphaned_at_height < p_drop_after THEN
    RETURN false;
  END IF;

  UPDATE chain_deposits SET state = 'dropped', drop_reason = 'orphaned', confirmations = 0, updated_at = now() WHERE id = p_deposit;
  SELECT * INTO v_row FROM transactions WHERE id = v_deposit.transaction_id FOR UPDATE;
  IF v_row.id IS NULL OR v_row.status <> 'pending' OR v_row.voided_at IS NOT NULL THEN
    RETURN false;
  END IF;
  -- pending → rejected moves nothing: a deposit's quantity sits in the deposits account in both.
  UPDATE transactions SET status = 'rejected', note = p_note,
    details = coalesce(details, '{}'::jsonb) || jsonb_build_object('confirmations', 0, 'dropped', 'orphaned'), updated_at = now()
  WHERE id = v_row.id;
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_lock_flagged_chain_deposit(uuid)
-- Created in drizzle/0017_deposit_review.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The deposit an admin decides on, locked (FOR UPDATE, held until the caller's commit): CPD01 unless it is a credited
-- deposit flagged orphaned_after_credit and not resolved yet.
CREATE OR REPLACE FUNCTION public.cp_lock_flagged_chain_deposit(p_deposit uuid)
 RETURNS chain_deposits
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_deposit chain_deposits%ROWTYPE;
BEGIN
  SELECT * INTO v_deposit FROM chain_deposits WHERE id = p_deposit FOR UPDATE;
  IF v_deposit.id IS NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPD01', MESSAGE = 'not found';
  END IF;
  IF v_deposit.review_resolution IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPD01', MESSAGE = 'resolved: ' || v_deposit.review_resolution;
  END IF;
  IF v_deposit.review IS NULL OR v_deposit.state <> 'credited' THEN
    RAISE EXCEPTION USING ERRCODE = 'CPD01', MESSAGE = 'not flagged';
  END IF;
  RETURN v_deposit;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_plan_chain_deposit_reversal(uuid)
-- Created in drizzle/0017_deposit_review.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- What taking back a flagged deposit moves, decided under the deposit's and its History row's locks (held until the
-- caller's commit; the four-eyes gate reads it before cp_reverse_chain_deposit applies it): {userId, token, amount,
-- transactionId} — the credited amount, from the customer back to the deposits account. CPD01 (see above); CPD02 when
-- its History row is no longer approved (an admin rejected or deleted it by hand: that already moved it back).
CREATE OR REPLACE FUNCTION public.cp_plan_chain_deposit_reversal(p_deposit uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_deposit chain_deposits;
  v_row transactions%ROWTYPE;
BEGIN
  v_deposit := cp_lock_flagged_chain_deposit(p_deposit);
  SELECT * INTO v_row FROM transactions WHERE id = v_deposit.transaction_id FOR UPDATE;
  IF v_row.id IS NULL OR v_row.status <> 'approved' OR v_row.voided_at IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPD02', MESSAGE = coalesce(v_row.status, 'missing');
  END IF;
  RETURN jsonb_build_object('userId', v_deposit.user_id, 'token', v_deposit.token, 'amount', v_deposit.amount::text, 'transactionId', v_row.id);
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_reverse_chain_deposit(uuid,text,text,uuid,integer,jsonb)
-- Created in drizzle/0017_deposit_review.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- "Take back": the credit of a flagged deposit reversed — its amount from the customer to the deposits platform account
-- (CPI01 when the customer no longer holds it: nothing is written), the deposit dropped and resolved taken_back with
-- the admin's reason, its History row rejected with p_note, and the notification, mail and audit rows (p_records).
-- Returns the plan it applied (the caller checks it against what a four-eyes approval bound).
CREATE OR REPLACE FUNCTION public.cp_reverse_chain_deposit(p_deposit uuid, p_reason text, p_note text, p_actor uuid, p_shard integer, p_records jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_plan jsonb;
  v_user uuid;
  v_token text;
BEGIN
  v_plan := cp_plan_chain_deposit_reversal(p_deposit);
  v_user := (v_plan->>'userId')::uuid;
  v_token := v_plan->>'token';

  PERFORM cp_post('chain_deposit_reversal', (v_plan->>'transactionId')::uuid, left('deposit taken back: ' || p_reason, 500), p_actor,
    cp_transfer(cp_customer_account(v_user, v_token), cp_platform_account('deposits', v_token, p_shard), (v_plan->>'amount')::numeric));
  UPDATE chain_deposits SET state = 'dropped', review_resolution = 'taken_back', review_reason = p_reason, reviewed_by = p_actor,
    reviewed_at = now(), updated_at = now()
  WHERE id = p_deposit;
  UPDATE transactions SET status = 'rejected', note = p_note, updated_at = now() WHERE id = (v_plan->>'transactionId')::uuid;
  PERFORM cp_write_records(p_records);
  RETURN v_plan;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_keep_chain_deposit(uuid,text,uuid,jsonb)
-- Created in drizzle/0017_deposit_review.sql.
-- Changed in drizzle/0024_money_generic_plans.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- "Keep (accept loss)": a flagged deposit stays credited; the review is resolved kept with the admin's reason and the
-- audit row (p_records). No money moves. CPD01 (see cp_lock_flagged_chain_deposit).
CREATE OR REPLACE FUNCTION public.cp_keep_chain_deposit(p_deposit uuid, p_reason text, p_actor uuid, p_records jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  PERFORM cp_lock_flagged_chain_deposit(p_deposit);
  UPDATE chain_deposits SET review_resolution = 'kept', review_reason = p_reason, reviewed_by = p_actor, reviewed_at = now(), updated_at = now()
  WHERE id = p_deposit;
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_drop_unmined_chain_deposit(uuid,text,integer,text,jsonb)
-- Created in drizzle/0061_dropped_deposits.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A deposit seen in the mempool and never in a block (not orphaned: cp_drop_chain_deposit has those), dropped under its
-- row lock for p_reason:
--   replaced   the node no longer has its transaction (the caller asked it; neither in the mempool nor in the chain);
--   not_mined  the watcher's cursor is p_drop_after blocks past seen_at_height, the height where it was first seen.
-- Its History row, when still pending, is rejected with p_note, marked details.dropped = p_reason, and the
-- notification and audit rows (p_records) are written: returns true. A History row an admin settled by hand meanwhile
-- stays as they left it (false). Anything else (in a block since, credited, dropped, not due): false, nothing written
-- — a replayed poll or a second instance drops nothing twice. Nothing is credited; mined after all, the watcher
-- re-opens the row (see the header) and cp_credit_chain_deposit credits it once.
CREATE OR REPLACE FUNCTION public.cp_drop_unmined_chain_deposit(p_deposit uuid, p_reason text, p_drop_after integer, p_note text, p_records jsonb)
 RETURNS boolean
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  v_deposit chain_deposits%ROWTYPE;
  v_row transactions%ROWTYPE;
  v_cursor_height bigint;
BEGIN
  IF p_reason IS NULL OR p_reason NOT IN ('replaced', 'not_mined') THEN
    RETURN false;
  END IF;
  SELECT * INTO v_deposit FROM chain_deposits WHERE id = p_deposit FOR UPDATE;
  IF v_deposit.id IS NULL OR v_deposit.state <> 'seen' OR v_deposit.block_height IS NOT NULL OR v_deposit.orphaned_at_height IS NOT NULL THEN
    RETURN false;
  END IF;
  IF p_reason = 'not_mined' THEN
    SELECT height INTO v_cursor_height FROM chain_cursors WHERE network = v_deposit.network;
    IF v_deposit.seen_at_height IS NULL OR v_cursor_height IS NULL OR p_drop_after IS NULL
      OR v_cursor_height - v_deposit.seen_at_height < p_drop_after THEN
      RETURN false;
    END IF;
  END IF;

  UPDATE chain_deposits SET state = 'dropped', drop_reason = p_reason, confirmations = 0, updated_at = now() WHERE id = p_deposit;
  SELECT * INTO v_row FROM transactions WHERE id = v_deposit.transaction_id FOR UPDATE;
  IF v_row.id IS NULL OR v_row.status <> 'pending' OR v_row.voided_at IS NOT NULL THEN
    RETURN false;
  END IF;
  -- pending → rejected moves nothing: a deposit's quantity sits in the deposits account in both.
  UPDATE transactions SET status = 'rejected', note = p_note,
    details = coalesce(details, '{}'::jsonb) || jsonb_build_object('confirmations', 0, 'dropped', p_reason), updated_at = now()
  WHERE id = v_row.id;
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$function$;
