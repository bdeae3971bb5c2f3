-- Frozen accounts (issue 35): an admin freezes a customer (reason required, audited, four-eyes when on), or sanctions
-- screening does when a deposit comes from a sanctioned address. Sign-in, reading and deposits go on; nothing leaves.
-- admin_approvals takes the two four-eyes requests (freeze-account, unfreeze-account). The rule is written once,
-- cp_require_unfrozen, performed by cp_send and cp_swap. Code of its own:
--   CPZ01  the customer's account is frozen
-- The rule runs after the limit rule (which, with KYC_LIMITS on, locks the customer's row FOR NO KEY UPDATE first,
-- so two sends of one customer never both hold a share lock and then wait to upgrade it). The freeze and the rule meet on the customer's users row: the freeze locks it FOR UPDATE, the rule FOR SHARE (many
-- sends of one customer share it; a foreign key check already key-share locks it), then reads account_freezes in a new
-- statement, so a send either committed before the freeze or sees it.
-- Sanctions screening (issue 35): the list of sanctioned addresses per network in force (replaced whole by a load of
-- SANCTIONS_LIST_FILE or an admin's upload; every instance reads it here), where it came from, and what screening
-- caught for the operator: sends and address-book entries refused (kind 'deposit' is kept for deposits from a sanctioned address,
-- which the chain watcher does not screen yet). Addresses are stored as normalised for their network by the API (EVM and bech32 lowercase).
CREATE TABLE "account_freezes" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"frozen_by" uuid,
	"frozen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sanctioned_addresses" (
	"network" text NOT NULL,
	"address" text NOT NULL,
	CONSTRAINT "sanctioned_addresses_pkey" PRIMARY KEY("network","address")
);
--> statement-breakpoint
CREATE TABLE "sanctions_hits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"token" text,
	"amount" numeric(38, 18),
	"txid" text,
	"chain_deposit_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sanctions_hits_kind_check" CHECK ("sanctions_hits"."kind" in ('send', 'address-book', 'deposit'))
);
--> statement-breakpoint
CREATE TABLE "sanctions_list_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"source" text NOT NULL,
	"sha256" text NOT NULL,
	"entries" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"loaded_by" uuid,
	"file_sha256" text,
	CONSTRAINT "sanctions_list_state_single_row_check" CHECK ("sanctions_list_state"."id" = 1),
	CONSTRAINT "sanctions_list_state_source_check" CHECK ("sanctions_list_state"."source" in ('file', 'upload'))
);
--> statement-breakpoint
ALTER TABLE "admin_approvals" DROP CONSTRAINT "admin_approvals_action_check";--> statement-breakpoint
ALTER TABLE "account_freezes" ADD CONSTRAINT "account_freezes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_freezes" ADD CONSTRAINT "account_freezes_frozen_by_fkey" FOREIGN KEY ("frozen_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_hits" ADD CONSTRAINT "sanctions_hits_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sanctions_list_state" ADD CONSTRAINT "sanctions_list_state_loaded_by_fkey" FOREIGN KEY ("loaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sanctions_hits_created_idx" ON "sanctions_hits" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sanctions_hits_deposit_key" ON "sanctions_hits" USING btree ("chain_deposit_id","address");--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_action_check" CHECK ("admin_approvals"."action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin', 'reverse-chain-deposit', 'change-fees', 'update-verification-limits', 'freeze-account', 'unfreeze-account'));
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
-- cp_send and cp_swap as in 0056 (fees and limits), refused while the account is frozen (after the limit rule).
-- cp_send no longer checks the house position: a withdrawal pays out of holdings what it takes off what is owed, so it
-- cannot lower the position, and a reading older than the customer's last deposit must not keep their coins in.
CREATE OR REPLACE FUNCTION public.cp_send(p_transaction uuid, p_user uuid, p_token text, p_network text, p_address text, p_memo text, p_quantity numeric, p_usd numeric, p_price numeric, p_details jsonb, p_at timestamp with time zone, p_code_checked boolean, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb, p_fee numeric)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_second_factor(p_user, p_code_checked);
  PERFORM cp_require_live_tokens(ARRAY[p_token]);
  PERFORM cp_require_send_allowed(p_user, p_token, p_network, p_address, p_memo);
  PERFORM cp_require_price(p_token, p_price, p_price_grace_ms);
  PERFORM cp_require_within_limits(p_user, 'withdrawal', p_usd);
  PERFORM cp_require_unfrozen(p_user);

  -- The withdrawal fee (0050).
  IF p_fee IS DISTINCT FROM cp_withdrawal_fee(p_token) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF01', MESSAGE = p_token;
  END IF;
  IF p_fee >= p_quantity THEN
    RAISE EXCEPTION USING ERRCODE = 'CPF02', MESSAGE = p_token;
  END IF;

  PERFORM cp_post('withdrawal_hold', p_transaction, 'withdrawal requested', p_user,
    cp_transfer(cp_customer_account(p_user, p_token), cp_platform_account('withdrawals_pending', p_token, p_shard), p_quantity - p_fee)
    || cp_revenue_moves(cp_customer_account(p_user, p_token), p_token, 0, 0, p_fee, p_shard));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'withdrawal', p_token, p_network, p_address, p_quantity - p_fee, p_usd, p_price, 'pending', 'out', NULL,
    CASE WHEN p_fee > 0 THEN coalesce(p_details, '{}'::jsonb) || jsonb_build_object('withdrawalFee', p_fee::text) ELSE p_details END,
    p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.cp_swap(p_transaction uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_to_quantity numeric, p_usd numeric, p_from_price numeric, p_to_price numeric, p_note text, p_details jsonb, p_at timestamp with time zone, p_price_grace_ms integer, p_shard integer, p_key jsonb, p_records jsonb, p_quote uuid, p_spread_quantity numeric, p_fee_quantity numeric)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_live_tokens(ARRAY[p_from, p_to]);

  -- Priced by a quote, or now (fees: 0050).
  IF p_quote IS NOT NULL THEN
    PERFORM cp_use_swap_quote(p_quote, p_user, p_transaction, p_from, p_to, p_from_quantity, p_to_quantity, p_spread_quantity,
      p_fee_quantity, p_from_price, p_to_price);
  ELSE
    PERFORM cp_require_price(p_from, p_from_price, p_price_grace_ms);
    PERFORM cp_require_price(p_to, p_to_price, p_price_grace_ms);
    PERFORM cp_require_swap_terms(p_from, p_to, p_from_quantity, p_from_price, p_to_price, p_to_quantity, p_spread_quantity, p_fee_quantity);
  END IF;

  PERFORM cp_require_within_limits(p_user, 'swap', p_usd);
  PERFORM cp_require_unfrozen(p_user);

  -- The house position of the token it pays out (0050).
  PERFORM cp_require_house_position(p_to, p_to_quantity, p_to_price);

  PERFORM cp_post('swap', p_transaction, 'swap ' || p_from || ' to ' || p_to, p_user,
    cp_transfer(cp_customer_account(p_user, p_from), cp_platform_account('swap_pool', p_from, p_shard), p_from_quantity)
    || cp_transfer(cp_platform_account('swap_pool', p_to, p_shard), cp_customer_account(p_user, p_to), p_to_quantity)
    || cp_revenue_moves(cp_platform_account('swap_pool', p_to, p_shard), p_to, p_spread_quantity, p_fee_quantity, 0, p_shard));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'swap', p_from, NULL, NULL, p_from_quantity, p_usd, p_from_price, 'approved', 'out', p_note, p_details, p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$function$;
