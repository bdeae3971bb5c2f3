-- Frozen accounts (issue 35): an admin freezes a customer (reason required, audited, four-eyes when on), or sanctions
-- screening does when a deposit comes from a sanctioned address. Sign-in, reading and deposits go on; nothing leaves.
-- admin_approvals takes the two four-eyes requests (freeze-account, unfreeze-account). The rule is written once,
-- cp_require_unfrozen, performed by cp_send and cp_swap. Code of its own:
--   CPZ01  the customer's account is frozen
-- The freeze and the rule meet on the customer's users row: the freeze locks it FOR UPDATE, the rule FOR SHARE (many
-- sends of one customer share it; a foreign key check already key-share locks it), then reads account_freezes in a new
-- statement, so a send either committed before the freeze or sees it.
CREATE TABLE "account_freezes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"frozen_by" uuid,
	"frozen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_approvals" DROP CONSTRAINT "admin_approvals_action_check";--> statement-breakpoint
ALTER TABLE "account_freezes" ADD CONSTRAINT "account_freezes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_freezes" ADD CONSTRAINT "account_freezes_frozen_by_fkey" FOREIGN KEY ("frozen_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_action_check" CHECK ("admin_approvals"."action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin', 'reverse-chain-deposit', 'freeze-account', 'unfreeze-account'));
--> statement-breakpoint
-- CPZ01 when the customer's account is frozen. Holds a share lock on the customer's row until the caller commits.
CREATE OR REPLACE FUNCTION cp_require_unfrozen(p_user uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR SHARE;
  IF EXISTS (SELECT 1 FROM account_freezes WHERE user_id = p_user) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPZ01', MESSAGE = '';
  END IF;
END
$$;
--> statement-breakpoint
-- cp_send (0013, 0024): refused while the account is frozen (cp_require_unfrozen first, before any other rule); otherwise unchanged.
CREATE OR REPLACE FUNCTION cp_send(p_transaction uuid, p_user uuid, p_token text, p_network text, p_address text, p_memo text, p_quantity numeric, p_usd numeric, p_price numeric, p_details jsonb, p_at timestamp with time zone, p_code_checked boolean, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_unfrozen(p_user);
  PERFORM cp_require_second_factor(p_user, p_code_checked);
  PERFORM cp_require_live_tokens(ARRAY[p_token]);
  PERFORM cp_require_send_allowed(p_user, p_token, p_network, p_address, p_memo);
  PERFORM cp_require_price(p_token, p_price, p_price_grace_ms);

  PERFORM cp_post('withdrawal_hold', p_transaction, 'withdrawal requested', p_user,
    cp_transfer(cp_customer_account(p_user, p_token), cp_platform_account('withdrawals_pending', p_token, p_shard), p_quantity));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'withdrawal', p_token, p_network, p_address, p_quantity, p_usd, p_price, 'pending', 'out', NULL, p_details, p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$function$;
--> statement-breakpoint
-- cp_swap (0013, 0024): refused while the account is frozen; otherwise unchanged.
CREATE OR REPLACE FUNCTION cp_swap(p_transaction uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_to_quantity numeric, p_usd numeric, p_from_price numeric, p_to_price numeric, p_note text, p_details jsonb, p_at timestamp with time zone, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_unfrozen(p_user);
  PERFORM cp_require_live_tokens(ARRAY[p_from, p_to]);
  PERFORM cp_require_price(p_from, p_from_price, p_price_grace_ms);
  PERFORM cp_require_price(p_to, p_to_price, p_price_grace_ms);

  PERFORM cp_post('swap', p_transaction, 'swap ' || p_from || ' to ' || p_to, p_user,
    cp_transfer(cp_customer_account(p_user, p_from), cp_platform_account('swap_pool', p_from, p_shard), p_from_quantity)
    || cp_transfer(cp_platform_account('swap_pool', p_to, p_shard), cp_customer_account(p_user, p_to), p_to_quantity));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'swap', p_from, NULL, NULL, p_from_quantity, p_usd, p_from_price, 'approved', 'out', p_note, p_details, p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$function$;
