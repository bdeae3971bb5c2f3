-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "money-guards" family: the current definition of each function (and composite type) first created by
--   drizzle/0002_money_guards.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0002_money_guards.sql:
--
-- Guards for one-statement money operations: a CTE calls cp_require(condition, sqlstate, detail); a false (or null)
-- condition aborts the whole statement with that SQLSTATE (class CP, not used by PostgreSQL), which the service maps to
-- its domain error. Volatile on purpose: the planner must neither fold nor skip the call.

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require(boolean,text,text)
-- Created in drizzle/0002_money_guards.sql.
-- ---------------------------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.cp_require(ok boolean, code text, detail text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = coalesce(detail, '');
  END IF;
  RETURN true;
END
$function$;
