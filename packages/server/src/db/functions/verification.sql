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
-- ---------------------------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.cp_require_within_limits(p_user uuid, p_kind text, p_usd numeric)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_level smallint;
  v_limits verification_limits%ROWTYPE;
  v_day numeric;
  v_month numeric;
  v_day_used numeric := 0;
  v_month_used numeric := 0;
BEGIN
  IF NOT coalesce((SELECT limits_enabled FROM verification_settings WHERE id = 1), false) THEN
    RETURN;
  END IF;
  SELECT verification_level INTO v_level FROM users WHERE id = p_user FOR NO KEY UPDATE;
  SELECT * INTO v_limits FROM verification_limits WHERE level = coalesce(v_level, 0);
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF p_kind = 'withdrawal' AND v_limits.withdrawal_single IS NOT NULL AND p_usd > v_limits.withdrawal_single THEN
    RAISE EXCEPTION USING ERRCODE = 'CPL01', MESSAGE = json_build_object('kind', p_kind, 'period', 'single', 'level', v_level,
      'limitUsd', v_limits.withdrawal_single::text, 'leftUsd', v_limits.withdrawal_single::text)::text;
  END IF;
  v_day := CASE p_kind WHEN 'deposit' THEN v_limits.deposit_day WHEN 'withdrawal' THEN v_limits.withdrawal_day WHEN 'swap' THEN v_limits.swap_day END;
  v_month := CASE p_kind WHEN 'deposit' THEN v_limits.deposit_month WHEN 'withdrawal' THEN v_limits.withdrawal_month WHEN 'swap' THEN v_limits.swap_month END;
  IF v_day IS NULL AND v_month IS NULL THEN
    RETURN;
  END IF;
  SELECT u.day_usd, u.month_usd INTO v_day_used, v_month_used FROM cp_verification_usage(p_user) u WHERE u.kind = p_kind;
  v_day_used := coalesce(v_day_used, 0);
  v_month_used := coalesce(v_month_used, 0);
  IF v_day IS NOT NULL AND v_day_used + p_usd > v_day THEN
    RAISE EXCEPTION USING ERRCODE = 'CPL01', MESSAGE = json_build_object('kind', p_kind, 'period', 'day', 'level', v_level,
      'limitUsd', v_day::text, 'leftUsd', greatest(v_day - v_day_used, 0)::text)::text;
  END IF;
  IF v_month IS NOT NULL AND v_month_used + p_usd > v_month THEN
    RAISE EXCEPTION USING ERRCODE = 'CPL01', MESSAGE = json_build_object('kind', p_kind, 'period', 'month', 'level', v_level,
      'limitUsd', v_month::text, 'leftUsd', greatest(v_month - v_month_used, 0)::text)::text;
  END IF;
END
$function$;
