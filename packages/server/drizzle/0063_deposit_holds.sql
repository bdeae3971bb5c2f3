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
ALTER TABLE "admin_approvals" DROP CONSTRAINT "admin_approvals_action_check";--> statement-breakpoint
ALTER TABLE "chain_deposits" DROP CONSTRAINT "chain_deposits_state_check";--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "hold" text;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "released_by" uuid;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_released_by_fkey" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chain_deposits_held_idx" ON "chain_deposits" USING btree ("network","held_at") WHERE "chain_deposits"."state" = 'held';--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_action_check" CHECK ("admin_approvals"."action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin', 'reverse-chain-deposit', 'change-fees', 'update-verification-limits', 'freeze-account', 'unfreeze-account', 'release-deposit-hold'));--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_hold_check" CHECK ("chain_deposits"."hold" is null or "chain_deposits"."hold" in ('limit', 'sanctions'));--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_held_check" CHECK ("chain_deposits"."state" <> 'held' or "chain_deposits"."hold" is not null);--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_state_check" CHECK ("chain_deposits"."state" in ('seen', 'confirming', 'held', 'credited', 'dropped', 'below_minimum'));
--> statement-breakpoint
-- The limit rule of cp_require_within_limits (0056), answered instead of raised: NULL when p_usd fits the level's
-- limits of p_kind (or KYC_LIMITS is off), else the refusal {"kind", "period", "level", "limitUsd", "leftUsd"}. Locks
-- the customer's row FOR NO KEY UPDATE when the limits are on (see 0056).
CREATE OR REPLACE FUNCTION cp_limit_refusal(p_user uuid, p_kind text, p_usd numeric) RETURNS json
LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint
-- As in 0056, the rule now read from cp_limit_refusal: CPL01 with the refusal.
CREATE OR REPLACE FUNCTION public.cp_require_within_limits(p_user uuid, p_kind text, p_usd numeric)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_refusal json;
BEGIN
  v_refusal := cp_limit_refusal(p_user, p_kind, p_usd);
  IF v_refusal IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPL01', MESSAGE = v_refusal::text;
  END IF;
END
$function$;
--> statement-breakpoint
DROP FUNCTION cp_credit_chain_deposit(uuid, integer, integer, integer, jsonb);
--> statement-breakpoint
-- cp_credit_chain_deposit as in 0016/0024, and held instead of credited when its History row is still pending and
-- either screening found a sanctioned sending address (sanctions_hits kind 'deposit' of this deposit: hold
-- 'sanctions') or its USD value (the History row's) would pass the customer's deposit limit (cp_limit_refusal: hold
-- 'limit'). Held: the deposit 'held' with its confirmations, the History row's details get {"hold"}, nothing moves,
-- and p_hold_records->'<hold>' is written (the customer's notification, for sanctions the admins' too). Returns what
-- it did: 'credited', 'held', or NULL (nothing to do, an admin's hand settlement, or dropped).
CREATE FUNCTION cp_credit_chain_deposit(p_deposit uuid, p_confirmations integer, p_required integer, p_shard integer, p_records jsonb, p_hold_records jsonb)
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
--> statement-breakpoint
-- A held deposit released: credited as cp_credit_chain_deposit credits (deposits → customer, the History row
-- approved, its "hold" kept as "heldFor"), with p_records (notification, mail, audit). Under the deposit's and its
-- History row's locks it must still be held, in a block the watcher keeps (CPD03 otherwise: 'not found', 'not in the
-- chain', or its state). p_actor NULL: the watcher's pass, which releases only a 'limit' hold and only when the
-- limit now allows it (cp_limit_refusal, under the customer's lock) — else it returns false and writes nothing. An
-- admin (p_actor) releases either kind. A History row an admin settled by hand meanwhile: rejected or voided, the
-- deposit is dropped; approved, it is credited without moving again (as the crediting does). Returns true when it
-- moved the coins.
CREATE OR REPLACE FUNCTION cp_release_deposit_hold(p_deposit uuid, p_actor uuid, p_shard integer, p_records jsonb)
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
--> statement-breakpoint
-- The sanctions list is held in each instance's memory (SanctionsListCache: a send is screened without a database
-- read); any change to it announces itself on the coinpurse_sanctions channel when the changing transaction commits
-- (an upload or a load of SANCTIONS_LIST_FILE replaces it in one transaction: one notification), and every instance
-- drops its copy.
CREATE OR REPLACE FUNCTION coinpurse_sanctions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('coinpurse_sanctions', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sanctioned_addresses_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sanctioned_addresses
  FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_sanctions_changed();
