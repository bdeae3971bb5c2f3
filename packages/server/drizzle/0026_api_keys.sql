-- API keys for integrators (issue 33): `Authorization: Bearer cp_…` on the routes the key's scopes allow (customers:
-- read, trade, withdraw; administrators: read, operate). Only the SHA-256 of the whole key is stored (the key is 240
-- random bits: a slow hash adds nothing), found by its `prefix` (its first 12 characters, shown to people and written
-- to logs) and compared in constant time. `allowed_ips`: client addresses or CIDR ranges (empty: anywhere).
-- audit_log.api_key_id: the key a change was made with (null: a person's session, or the system).
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"allowed_ips" text[] DEFAULT '{}' NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_keys_scopes_check" CHECK (cardinality("api_keys"."scopes") > 0 and "api_keys"."scopes" <@ array['read', 'trade', 'withdraw', 'operate']::text[])
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","created_at");
--> statement-breakpoint
-- cp_write_records (0012) writes the key of an audit row too; otherwise unchanged.
CREATE OR REPLACE FUNCTION cp_write_records(p_rows jsonb) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_rows IS NULL THEN
    RETURN;
  END IF;
  IF p_rows ? 'notifications' THEN
    INSERT INTO notifications (id, user_id, title, message, status, read, created_by, created_at)
    SELECT coalesce(n.id, gen_random_uuid()), n.user_id, n.title, n.message, n.status, false, n.created_by, coalesce(n.created_at, now())
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
