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

-- A customer's destination tag (xrp) or memo (stellar) on the network's shared deposit address: allocated once per
-- customer and network, unique per network, never given to another customer. A 32-bit unsigned integer, so it is a
-- valid XRP destination tag and a valid Stellar MEMO_ID (and MEMO_TEXT) alike.
CREATE TABLE "deposit_tags" (
	"user_id" uuid NOT NULL REFERENCES "users"("id"),
	"network" text NOT NULL,
	"tag" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deposit_tags_pkey" PRIMARY KEY("user_id","network"),
	CONSTRAINT "deposit_tags_network_check" CHECK ("network" in ('xrp', 'stellar')),
	CONSTRAINT "deposit_tags_tag_check" CHECK ("tag" between 0 and 4294967295)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deposit_tags_network_tag_key" ON "deposit_tags" USING btree ("network","tag");--> statement-breakpoint
-- The cursor height at which a deposit's block was orphaned before credit (it went back to seen): the watcher drops it
-- once the chain has moved CHAIN_<NETWORK>_DROP_AFTER_BLOCKS past that without mining it again.
ALTER TABLE "chain_deposits" ADD COLUMN "orphaned_at_height" bigint;--> statement-breakpoint
-- An admin's decision on a deposit flagged orphaned_after_credit: taken back (the credit reversed) or kept (the loss
-- accepted), with the admin's reason. The flag stays: it says what happened; the resolution says what was decided.
ALTER TABLE "chain_deposits" ADD COLUMN "review_resolution" text;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "reviewed_by" uuid REFERENCES "users"("id");--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chain_deposits" ADD CONSTRAINT "chain_deposits_review_resolution_check"
  CHECK ("review_resolution" is null or ("review" is not null and "review_resolution" in ('taken_back', 'kept') and "reviewed_at" is not null));--> statement-breakpoint
CREATE INDEX "chain_deposits_review_idx" ON "chain_deposits" USING btree ("created_at") WHERE "review" is not null;--> statement-breakpoint
-- Taking back a flagged deposit is a four-eyes action like the other admin money actions.
ALTER TABLE "admin_approvals" DROP CONSTRAINT "admin_approvals_action_check";--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_action_check"
  CHECK ("action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin', 'reverse-chain-deposit'));
--> statement-breakpoint

-- A deposit orphaned before credit and not mined again (still seen, in no block) once the watcher's cursor is
-- p_drop_after blocks past the height where it was orphaned: dropped, under its row lock. Its History row, when still
-- pending, is rejected with p_note and the notification (p_records): returns true. A History row an admin settled by
-- hand meanwhile stays as they left it (false). Anything else (mined again, credited, not due yet): false, nothing
-- written — a replayed poll or a second instance drops nothing twice.
CREATE FUNCTION cp_drop_chain_deposit(p_deposit uuid, p_drop_after int, p_note text, p_records jsonb) RETURNS boolean
LANGUAGE plpgsql AS $$
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

  UPDATE chain_deposits SET state = 'dropped', confirmations = 0, updated_at = now() WHERE id = p_deposit;
  SELECT * INTO v_row FROM transactions WHERE id = v_deposit.transaction_id FOR UPDATE;
  IF v_row.id IS NULL OR v_row.status <> 'pending' OR v_row.voided_at IS NOT NULL THEN
    RETURN false;
  END IF;
  -- pending → rejected moves nothing: a deposit's quantity sits in the deposits account in both.
  UPDATE transactions SET status = 'rejected', note = p_note,
    details = coalesce(details, '{}'::jsonb) || jsonb_build_object('confirmations', 0), updated_at = now()
  WHERE id = v_row.id;
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$$;
--> statement-breakpoint

-- The deposit an admin decides on, locked (FOR UPDATE, held until the caller's commit): CPD01 unless it is a credited
-- deposit flagged orphaned_after_credit and not resolved yet.
CREATE FUNCTION cp_lock_flagged_chain_deposit(p_deposit uuid) RETURNS chain_deposits
LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint

-- What taking back a flagged deposit moves, decided under the deposit's and its History row's locks (held until the
-- caller's commit; the four-eyes gate reads it before cp_reverse_chain_deposit applies it): {userId, token, amount,
-- transactionId} — the credited amount, from the customer back to the deposits account. CPD01 (see above); CPD02 when
-- its History row is no longer approved (an admin rejected or deleted it by hand: that already moved it back).
CREATE FUNCTION cp_plan_chain_deposit_reversal(p_deposit uuid) RETURNS jsonb
LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint

-- "Take back": the credit of a flagged deposit reversed — its amount from the customer to the deposits platform account
-- (CPI01 when the customer no longer holds it: nothing is written), the deposit dropped and resolved taken_back with
-- the admin's reason, its History row rejected with p_note, and the notification, mail and audit rows (p_records).
-- Returns the plan it applied (the caller checks it against what a four-eyes approval bound).
CREATE FUNCTION cp_reverse_chain_deposit(p_deposit uuid, p_reason text, p_note text, p_actor uuid, p_shard int, p_records jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint

-- "Keep (accept loss)": a flagged deposit stays credited; the review is resolved kept with the admin's reason and the
-- audit row (p_records). No money moves. CPD01 (see cp_lock_flagged_chain_deposit).
CREATE FUNCTION cp_keep_chain_deposit(p_deposit uuid, p_reason text, p_actor uuid, p_records jsonb) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cp_lock_flagged_chain_deposit(p_deposit);
  UPDATE chain_deposits SET review_resolution = 'kept', review_reason = p_reason, reviewed_by = p_actor, reviewed_at = now(), updated_at = now()
  WHERE id = p_deposit;
  PERFORM cp_write_records(p_records);
  RETURN true;
END
$$;
