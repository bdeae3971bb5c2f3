-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "webhooks" family: the current definition of each function (and composite type) first created by
--   drizzle/0027_webhooks.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0027_webhooks.sql:
--
-- Webhooks (issue 33): endpoints, their outbox of deliveries, and every attempt.
--
-- Events are written by triggers, in the transaction of the change they announce: a change made inside a money
-- function (cp_send, cp_swap, cp_credit_chain_deposit, cp_fail_payout, …), by the chain watcher or by TypeScript is
-- announced the same way, and none of them knows about webhooks. A trigger writes a delivery only when an enabled
-- endpoint subscribes to the event (one lookup on a small indexed table): with none, a swap pays that one probe.
-- The delivery row keeps the changed row as it was (`source`, amounts as text); the delivery job renders the body
-- from it with the same code the REST API uses, once, and sends those bytes on every try.
-- webhook_endpoints: 'user' endpoints take their customer's events, 'admin' ones every customer's and the back office's;
-- the signing secret (whsec_…) is sealed with ENCRYPTION_KEY (it must be read to sign), the previous one signs too until
-- previous_secret_until after a rotation. webhook_deliveries: one row per (event, endpoint), delivered in id order per
-- endpoint; `event_id` is the webhook-id of every try; `body` is rendered at the first try and sent as is ever after;
-- `leased_until` is set while an instance sends it. webhook_attempts: every try (status or error, the start of the answer).

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_webhook_enqueue(text[],uuid,text,jsonb)
-- Created in drizzle/0027_webhooks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Writes one delivery per enabled endpoint subscribed to each of p_types (in that order): the customer's own
-- endpoints (p_user), and every administrator endpoint. Nothing when none subscribes.
CREATE OR REPLACE FUNCTION public.cp_webhook_enqueue(p_types text[], p_user uuid, p_kind text, p_source jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_type text;
  v_endpoints uuid[];
  v_event uuid;
BEGIN
  FOREACH v_type IN ARRAY p_types LOOP
    v_endpoints := ARRAY(
      SELECT id FROM webhook_endpoints
      WHERE user_id = p_user AND owner_role = 'user' AND enabled AND v_type = ANY (events)
      UNION ALL
      SELECT id FROM webhook_endpoints
      WHERE enabled AND owner_role = 'admin' AND v_type = ANY (events)
    );
    IF cardinality(v_endpoints) > 0 THEN
      v_event := gen_random_uuid();
      INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, source_kind, source)
      SELECT endpoint, v_event, v_type, p_kind, p_source FROM unnest(v_endpoints) AS endpoint;
    END IF;
  END LOOP;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_webhook_transaction_source(transactions)
-- Created in drizzle/0027_webhooks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A transactions row as the webhooks keep it: its columns, amounts as text (exact in JSON).
CREATE OR REPLACE FUNCTION public.cp_webhook_transaction_source(p_row transactions)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT to_jsonb(p_row) || jsonb_build_object(
    'coin_amount', p_row.coin_amount::text, 'usd_amount', p_row.usd_amount::text, 'price', p_row.price::text)
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_webhook_transaction_events()
-- Created in drizzle/0027_webhooks.sql.
-- Changed in drizzle/0061_dropped_deposits.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The customer's money events, read from the History row's changes (the payout's state is mirrored into its
-- details, the deposit's confirmations too):
--   deposit     inserted pending → deposit.pending (and deposit.confirmed when already in a block); inserted or set
--               approved → deposit.credited; a new confirmation count while pending → deposit.confirmed
--   withdrawal  inserted → withdrawal.created; approved → withdrawal.approved (and withdrawal.completed when an admin
--               settled it by hand with its txHash); rejected → withdrawal.failed; payoutState broadcast / completed →
--               withdrawal.broadcast / withdrawal.completed; awaiting_funds / awaiting_cold_signature → payout.* (admins)
--   swap        inserted → swap.completed;   adjustment  inserted → balance.adjusted
-- Voided rows announce nothing.
--
-- Changed in drizzle/0061_dropped_deposits.sql:
-- cp_webhook_transaction_events (0027): a deposit's History row rejected by the watcher's drop (details.dropped) →
-- deposit.dropped; otherwise unchanged.
CREATE OR REPLACE FUNCTION public.cp_webhook_transaction_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
$function$;

CREATE TRIGGER transactions_webhook_insert AFTER INSERT ON public.transactions FOR EACH ROW EXECUTE FUNCTION cp_webhook_transaction_events();
CREATE TRIGGER transactions_webhook_update AFTER UPDATE ON public.transactions FOR EACH ROW WHEN (((old.status IS DISTINCT FROM new.status) OR (old.details IS DISTINCT FROM new.details))) EXECUTE FUNCTION cp_webhook_transaction_events();

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_webhook_notification_events()
-- Created in drizzle/0027_webhooks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- notification.created: every notification a customer gets.
CREATE OR REPLACE FUNCTION public.cp_webhook_notification_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM cp_webhook_enqueue(ARRAY['notification.created'], NEW.user_id, 'notification', to_jsonb(NEW));
  RETURN NULL;
END
$function$;

CREATE TRIGGER notifications_webhook_insert AFTER INSERT ON public.notifications FOR EACH ROW EXECUTE FUNCTION cp_webhook_notification_events();

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_webhook_approval_events()
-- Created in drizzle/0027_webhooks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- approval.requested / approval.decided (administrators' endpoints only: p_user is null).
CREATE OR REPLACE FUNCTION public.cp_webhook_approval_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM cp_webhook_enqueue(ARRAY['approval.requested'], NULL, 'approval',
      jsonb_build_object('id', NEW.id, 'status', NEW.status));
  ELSIF OLD.status = 'pending' AND NEW.status <> 'pending' THEN
    PERFORM cp_webhook_enqueue(ARRAY['approval.decided'], NULL, 'approval',
      jsonb_build_object('id', NEW.id, 'status', NEW.status, 'decided_by', NEW.decided_by, 'decided_at', NEW.decided_at,
        'decision_reason', NEW.decision_reason, 'last_error', NEW.last_error));
  END IF;
  RETURN NULL;
END
$function$;

CREATE TRIGGER admin_approvals_webhook AFTER INSERT OR UPDATE OF status ON public.admin_approvals FOR EACH ROW EXECUTE FUNCTION cp_webhook_approval_events();

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_webhook_deposit_review_events()
-- Created in drizzle/0027_webhooks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- deposit.review_required: a credited deposit whose block was orphaned (administrators' endpoints only).
CREATE OR REPLACE FUNCTION public.cp_webhook_deposit_review_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM cp_webhook_enqueue(ARRAY['deposit.review_required'], NULL, 'chain_deposit',
    to_jsonb(NEW) || jsonb_build_object('amount', NEW.amount::text, 'amount_base', NEW.amount_base::text));
  RETURN NULL;
END
$function$;

CREATE TRIGGER chain_deposits_webhook_review AFTER UPDATE OF review ON public.chain_deposits FOR EACH ROW WHEN (((old.review IS NULL) AND (new.review IS NOT NULL))) EXECUTE FUNCTION cp_webhook_deposit_review_events();
