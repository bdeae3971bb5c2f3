-- Verification levels (issue 35) and erasure: each customer's level (users.verification_level: 0 on sign-up), their submissions
-- for level 1 (identity: personal details sealed with ENCRYPTION_KEY and the identity documents) and level 2 (proof of
-- address), the encrypted documents, each level's limits (seeded from configuration at start, changed in the back
-- office) and whether the money functions enforce them (KYC_LIMITS, written at start).
--
-- cp_verification_usage(user): what the customer moved in USD over the last 24 hours and 30 days, per kind, as the
-- limit rule counts it: withdrawals not rejected, swaps, deposits credited to the balance; voided rows never.
CREATE TABLE "verification_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"submission_id" uuid,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"sealed" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_documents_kind_check" CHECK ("verification_documents"."kind" in ('id_front', 'id_back', 'selfie', 'proof_of_address'))
);
--> statement-breakpoint
CREATE TABLE "verification_limits" (
	"level" smallint PRIMARY KEY NOT NULL,
	"deposit_day" numeric,
	"deposit_month" numeric,
	"withdrawal_day" numeric,
	"withdrawal_month" numeric,
	"withdrawal_single" numeric,
	"swap_day" numeric,
	"swap_month" numeric,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "verification_limits_level_check" CHECK ("verification_limits"."level" in (0, 1, 2))
);
--> statement-breakpoint
CREATE TABLE "verification_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"limits_enabled" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_settings_one_row_check" CHECK ("verification_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "verification_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"level" smallint NOT NULL,
	"status" text DEFAULT 'in_review' NOT NULL,
	"details_sealed" text,
	"assigned_to" uuid,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_submissions_status_check" CHECK ("verification_submissions"."status" in ('in_review', 'approved', 'rejected')),
	CONSTRAINT "verification_submissions_level_check" CHECK ("verification_submissions"."level" in (1, 2))
);
--> statement-breakpoint
ALTER TABLE "admin_approvals" DROP CONSTRAINT "admin_approvals_action_check";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "verification_level" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "verification_documents" ADD CONSTRAINT "verification_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_documents" ADD CONSTRAINT "verification_documents_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "public"."verification_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_submissions" ADD CONSTRAINT "verification_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verification_documents_submission_idx" ON "verification_documents" USING btree ("submission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_documents_draft_key" ON "verification_documents" USING btree ("user_id","kind") WHERE "verification_documents"."submission_id" is null;--> statement-breakpoint
CREATE INDEX "verification_submissions_status_created_idx" ON "verification_submissions" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "verification_submissions_user_created_idx" ON "verification_submissions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "verification_submissions_one_in_review_key" ON "verification_submissions" USING btree ("user_id") WHERE "verification_submissions"."status" = 'in_review';--> statement-breakpoint
CREATE INDEX "transactions_user_created_idx" ON "transactions" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_verification_level_check" CHECK ("users"."verification_level" in (0, 1, 2));--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_action_check" CHECK ("admin_approvals"."action" in ('update-balance', 'deposit', 'modify-transaction', 'delete-trx', 'create-admin', 'reverse-chain-deposit', 'change-fees', 'update-verification-limits'));--> statement-breakpoint
CREATE OR REPLACE FUNCTION cp_verification_usage(p_user uuid)
RETURNS TABLE (kind text, day_usd numeric, month_usd numeric)
LANGUAGE sql STABLE
AS $$
  SELECT t.type,
         coalesce(sum(t.usd_amount) FILTER (WHERE t.created_at > now() - interval '24 hours'), 0),
         coalesce(sum(t.usd_amount), 0)
  FROM transactions t
  WHERE t.user_id = p_user
    AND t.created_at > now() - interval '30 days'
    AND t.voided_at IS NULL
    AND ((t.type = 'withdrawal' AND t.status <> 'rejected')
      OR (t.type = 'swap' AND t.status = 'approved')
      OR (t.type = 'deposit' AND t.status = 'approved'))
  GROUP BY t.type
$$;
