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
CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" bigint NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer,
	"error" text,
	"response_body" text,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"source_kind" text NOT NULL,
	"source" jsonb NOT NULL,
	"body" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_state_check" CHECK ("webhook_deliveries"."state" in ('pending', 'delivered', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"owner_role" text NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" text[] NOT NULL,
	"secret_sealed" text NOT NULL,
	"previous_secret_sealed" text,
	"previous_secret_until" timestamp with time zone,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_owner_role_check" CHECK ("webhook_endpoints"."owner_role" in ('user', 'admin')),
	CONSTRAINT "webhook_endpoints_events_check" CHECK (cardinality("webhook_endpoints"."events") > 0)
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id") WHERE "webhook_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_done_idx" ON "webhook_deliveries" USING btree ("updated_at") WHERE "webhook_deliveries"."state" <> 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_user_idx" ON "webhook_endpoints" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_endpoints_admin_idx" ON "webhook_endpoints" USING btree ("id") WHERE "webhook_endpoints"."enabled" and "webhook_endpoints"."owner_role" = 'admin';
--> statement-breakpoint

-- Writes one delivery per enabled endpoint subscribed to each of p_types (in that order): the customer's own
-- endpoints (p_user), and every administrator endpoint. Nothing when none subscribes.
CREATE FUNCTION cp_webhook_enqueue(p_types text[], p_user uuid, p_kind text, p_source jsonb) RETURNS void
LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint

-- A transactions row as the webhooks keep it: its columns, amounts as text (exact in JSON).
CREATE FUNCTION cp_webhook_transaction_source(p_row transactions) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT to_jsonb(p_row) || jsonb_build_object(
    'coin_amount', p_row.coin_amount::text, 'usd_amount', p_row.usd_amount::text, 'price', p_row.price::text)
$$;
--> statement-breakpoint

-- The customer's money events, read from the History row's changes (the payout's state is mirrored into its
-- details, the deposit's confirmations too):
--   deposit     inserted pending → deposit.pending (and deposit.confirmed when already in a block); inserted or set
--               approved → deposit.credited; a new confirmation count while pending → deposit.confirmed
--   withdrawal  inserted → withdrawal.created; approved → withdrawal.approved (and withdrawal.completed when an admin
--               settled it by hand with its txHash); rejected → withdrawal.failed; payoutState broadcast / completed →
--               withdrawal.broadcast / withdrawal.completed; awaiting_funds / awaiting_cold_signature → payout.* (admins)
--   swap        inserted → swap.completed;   adjustment  inserted → balance.adjusted
-- Voided rows announce nothing.
CREATE FUNCTION cp_webhook_transaction_events() RETURNS trigger
LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
CREATE TRIGGER "transactions_webhook_insert" AFTER INSERT ON "transactions"
  FOR EACH ROW EXECUTE FUNCTION cp_webhook_transaction_events();
--> statement-breakpoint
CREATE TRIGGER "transactions_webhook_update" AFTER UPDATE ON "transactions"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.details IS DISTINCT FROM NEW.details)
  EXECUTE FUNCTION cp_webhook_transaction_events();
--> statement-breakpoint

-- notification.created: every notification a customer gets.
CREATE FUNCTION cp_webhook_notification_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cp_webhook_enqueue(ARRAY['notification.created'], NEW.user_id, 'notification', to_jsonb(NEW));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "notifications_webhook_insert" AFTER INSERT ON "notifications"
  FOR EACH ROW EXECUTE FUNCTION cp_webhook_notification_events();
--> statement-breakpoint

-- approval.requested / approval.decided (administrators' endpoints only: p_user is null).
CREATE FUNCTION cp_webhook_approval_events() RETURNS trigger
LANGUAGE plpgsql AS $$
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
$$;
--> statement-breakpoint
CREATE TRIGGER "admin_approvals_webhook" AFTER INSERT OR UPDATE OF "status" ON "admin_approvals"
  FOR EACH ROW EXECUTE FUNCTION cp_webhook_approval_events();
--> statement-breakpoint

-- deposit.review_required: a credited deposit whose block was orphaned (administrators' endpoints only).
CREATE FUNCTION cp_webhook_deposit_review_events() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cp_webhook_enqueue(ARRAY['deposit.review_required'], NULL, 'chain_deposit',
    to_jsonb(NEW) || jsonb_build_object('amount', NEW.amount::text, 'amount_base', NEW.amount_base::text));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "chain_deposits_webhook_review" AFTER UPDATE OF "review" ON "chain_deposits"
  FOR EACH ROW WHEN (OLD.review IS NULL AND NEW.review IS NOT NULL)
  EXECUTE FUNCTION cp_webhook_deposit_review_events();
