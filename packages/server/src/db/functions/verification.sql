-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "verification" family: the current definition of each function (and composite type) first created by
--   drizzle/0055_verification.sql
--   drizzle/0056_verification_limits.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0055_verification.sql:
--
-- Verification levels (issue 35) and erasure: each customer's level (users.verification_level: 0 on sign-up), their submissions
-- for level 1 (identity: personal details sealed with ENCRYPTION_KEY and the identity documents) and level 2 (proof of
-- address), the encrypted documents, each level's limits (seeded from configuration at start, changed in the back
-- office) and whether the money functions enforce them (KYC_LIMITS, written at start).
--
-- cp_verification_usage(user): what the customer moved in USD over the last 24 hours and 30 days, per kind, as the
-- limit rule counts it: withdrawals not rejected, swaps, deposits credited to the balance; voided rows never.

-- From the header of drizzle/0056_verification_limits.sql:
--
-- Verification limits in the money functions (issue 35). One rule, written once: cp_require_within_limits(user, kind,
-- usd), called by cp_send (withdrawals) and cp_swap (swaps) before they move anything, and by the chain deposits'
-- crediting (drizzle/0057). With KYC_LIMITS on (verification_settings.limits_enabled, written at start) it locks the
-- customer's row (FOR NO KEY UPDATE: one limited call of a customer at a time, so the sums it reads count every call
-- committed before it and two concurrent sends can never both fit under what is left), then checks the amount against
-- the level's limits (verification_limits): the largest single withdrawal, the rolling 24 hours and the rolling 30 days,
-- as cp_verification_usage sums them. A limit is reached, not passed: used + amount up to the limit goes through.
-- Code of its own:
--   CPL01  over a verification limit   MESSAGE: {"kind", "period" (single, day, month), "level", "limitUsd", "leftUsd"}

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_verification_usage(uuid)
-- Created in drizzle/0055_verification.sql.
-- ---------------------------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.cp_verification_usage(p_user uuid)
 RETURNS TABLE(kind text, day_usd numeric, month_usd numeric)
 LANGUAGE sql
 STABLE
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_within_limits(uuid,text,numeric)
-- Created in drizzle/0056_verification_limits.sql.
-- Changed in drizzle/0063_deposit_holds.sql.
-- ---------------------------------------------------------------------------------------------------------------------
--
-- Changed in drizzle/0063_deposit_holds.sql:
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
