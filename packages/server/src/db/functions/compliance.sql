-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "compliance" family: the current definition of each function (and composite type) first created by
--   drizzle/0058_compliance.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0058_compliance.sql:
--
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

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_unfrozen(uuid)
-- Created in drizzle/0058_compliance.sql.
-- Changed in drizzle/0064_lighter_money_checks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- CPZ01 when the customer's account is frozen. Holds a share lock on the customer's row until the caller commits.
--
-- Changed in drizzle/0064_lighter_money_checks.sql:
-- CPZ01 when the customer's account is frozen. Key-share locks the customer's row until the caller commits (the
-- freeze locks it FOR UPDATE), then reads account_freezes in a new statement.
CREATE OR REPLACE FUNCTION public.cp_require_unfrozen(p_user uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR KEY SHARE;
  IF EXISTS (SELECT 1 FROM account_freezes WHERE user_id = p_user) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPZ01', MESSAGE = '';
  END IF;
END
$function$;
