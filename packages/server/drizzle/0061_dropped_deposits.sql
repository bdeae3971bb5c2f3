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
ALTER TABLE "notifications" ADD COLUMN "transaction_id" uuid;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "seen_at_height" bigint;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "drop_reason" text;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_drop_reason_check" CHECK ("chain_deposits"."drop_reason" is null or "chain_deposits"."drop_reason" in ('orphaned', 'replaced', 'not_mined'));
--> statement-breakpoint
-- Deposits waiting in the mempool now: their window counts from the current cursor.
UPDATE chain_deposits d SET seen_at_height = c.height
FROM chain_cursors c
WHERE c.network = d.network AND d.state = 'seen' AND d.block_height IS NULL AND d.orphaned_at_height IS NULL;
--> statement-breakpoint
-- Deposits dropped before (orphaned and never mined again): marked, so that they are credited if mined after all.
UPDATE transactions t SET details = coalesce(t.details, '{}'::jsonb) || '{"dropped": "orphaned"}'::jsonb
FROM chain_deposits d
WHERE d.transaction_id = t.id AND d.state = 'dropped' AND d.orphaned_at_height IS NOT NULL
  AND t.status = 'rejected' AND t.voided_at IS NULL AND t.note LIKE 'Dropped: %';
--> statement-breakpoint
UPDATE chain_deposits d SET drop_reason = 'orphaned'
FROM transactions t
WHERE d.transaction_id = t.id AND d.state = 'dropped' AND t.details ? 'dropped';
--> statement-breakpoint
-- cp_write_records (0012, 0026) writes the notification's transaction_id too; otherwise unchanged.
CREATE OR REPLACE FUNCTION cp_write_records(p_rows jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_rows IS NULL THEN
    RETURN;
  END IF;
  IF p_rows ? 'notifications' THEN
    INSERT INTO notifications (id, user_id, title, message, status, read, created_by, created_at, transaction_id)
    SELECT coalesce(n.id, gen_random_uuid()), n.user_id, n.title, n.message, n.status, false, n.created_by, coalesce(n.created_at, now()),
      n.transaction_id
    FROM jsonb_populate_recordset(NULL::notifications, p_rows->'notifications') AS n;
  END IF;
  IF p_rows ? 'audit' THEN
    INSERT INTO audit_log (actor_id, actor_role, action, target_type, target_id, before, after, request_id, api_key_id)
    SELECT a.actor_id, a.actor_role, a.action, a.target_type, a.target_id, a.before, a.after, a.request_id, a.api_key_id
    FROM jsonb_populate_recordset(NULL::audit_log, p_rows->'audit') AS a;
  END IF;
  IF p_rows ? 'mail' THEN
    INSERT INTO mail_outbox ("to", subject, text, html)
    SELECT m."to", m.subject, m.text, m.html FROM jsonb_populate_recordset(NULL::mail_outbox, p_rows->'mail') AS m;
  END IF;
END
$$;
--> statement-breakpoint
-- cp_drop_chain_deposit (0017, 0024) records why (drop_reason 'orphaned') and marks the History row it rejects
-- (details.dropped), so that a payment mined after all is credited; otherwise unchanged.
CREATE OR REPLACE FUNCTION cp_drop_chain_deposit(p_deposit uuid, p_drop_after int, p_note text, p_records jsonb) RETURNS boolean
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
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
$$;
--> statement-breakpoint
-- A deposit seen in the mempool and never in a block (not orphaned: cp_drop_chain_deposit has those), dropped under its
-- row lock for p_reason:
--   replaced   the node no longer has its transaction (the caller asked it; neither in the mempool nor in the chain);
--   not_mined  the watcher's cursor is p_drop_after blocks past seen_at_height, the height where it was first seen.
-- Its History row, when still pending, is rejected with p_note, marked details.dropped = p_reason, and the
-- notification and audit rows (p_records) are written: returns true. A History row an admin settled by hand meanwhile
-- stays as they left it (false). Anything else (in a block since, credited, dropped, not due): false, nothing written
-- — a replayed poll or a second instance drops nothing twice. Nothing is credited; mined after all, the watcher
-- re-opens the row (see the header) and cp_credit_chain_deposit credits it once.
CREATE FUNCTION cp_drop_unmined_chain_deposit(p_deposit uuid, p_reason text, p_drop_after int, p_note text, p_records jsonb) RETURNS boolean
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $$
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
$$;
--> statement-breakpoint
-- cp_webhook_transaction_events (0027): a deposit's History row rejected by the watcher's drop (details.dropped) →
-- deposit.dropped; otherwise unchanged.
CREATE OR REPLACE FUNCTION cp_webhook_transaction_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $$
DECLARE
  v_types text[] := '{}';
  v_state text;
BEGIN
  IF NEW.voided_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.type = 'deposit' THEN
      IF NEW.status = 'pending' THEN
        v_types := ARRAY['deposit.pending'];
        IF NEW.details ? 'requiredConfirmations' AND coalesce((NEW.details->>'confirmations')::int, 0) > 0 THEN
          v_types := array_append(v_types, 'deposit.confirmed');
        END IF;
      ELSIF NEW.status = 'approved' THEN
        v_types := ARRAY['deposit.credited'];
      END IF;
    ELSIF NEW.type = 'withdrawal' THEN
      v_types := ARRAY['withdrawal.created'];
    ELSIF NEW.type = 'swap' THEN
      v_types := ARRAY['swap.completed'];
    ELSIF NEW.type = 'adjustment' THEN
      v_types := ARRAY['balance.adjusted'];
    END IF;
  ELSIF NEW.type = 'deposit' THEN
    IF NEW.status = 'approved' AND OLD.status <> 'approved' THEN
      v_types := ARRAY['deposit.credited'];
    ELSIF NEW.status = 'rejected' AND OLD.status = 'pending' AND NEW.details ? 'dropped' THEN
      v_types := ARRAY['deposit.dropped'];
    ELSIF NEW.status = 'pending' AND NEW.details ? 'requiredConfirmations'
      AND (NEW.details->'confirmations') IS DISTINCT FROM (OLD.details->'confirmations')
      AND coalesce((NEW.details->>'confirmations')::int, 0) > 0 THEN
      v_types := ARRAY['deposit.confirmed'];
    END IF;
  ELSIF NEW.type = 'withdrawal' THEN
    IF NEW.status <> OLD.status THEN
      IF NEW.status = 'approved' THEN
        v_types := ARRAY['withdrawal.approved'];
        IF NEW.details ? 'txHash' AND NOT NEW.details ? 'payoutState' THEN
          v_types := array_append(v_types, 'withdrawal.completed');
        END IF;
      ELSIF NEW.status = 'rejected' THEN
        v_types := ARRAY['withdrawal.failed'];
      END IF;
    END IF;
    v_state := NEW.details->>'payoutState';
    IF v_state IS DISTINCT FROM OLD.details->>'payoutState' THEN
      v_types := v_types || CASE v_state
        WHEN 'broadcast' THEN ARRAY['withdrawal.broadcast']
        WHEN 'completed' THEN ARRAY['withdrawal.completed']
        WHEN 'awaiting_funds' THEN ARRAY['payout.awaiting_funds']
        WHEN 'awaiting_cold_signature' THEN ARRAY['payout.awaiting_cold_signature']
        ELSE '{}'::text[] END;
    END IF;
  END IF;
  IF cardinality(v_types) > 0 THEN
    PERFORM cp_webhook_enqueue(v_types, NEW.user_id, 'transaction', cp_webhook_transaction_source(NEW));
  END IF;
  RETURN NULL;
END
$$;

