-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "reference-data" family: the current definition of each function (and composite type) first created by
--   drizzle/0003_coin_price_changed_at.sql
--   drizzle/0004_reference_data_notify.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0004_reference_data_notify.sql:
--
-- Reference data (coins and their prices, supported tokens, token networks) is cached in each instance's memory. Any
-- change to these tables announces itself on the coinpurse_reference channel: the NOTIFY is sent when (and only if) the
-- changing transaction commits, whichever code path made the change (refresh job, admin, seed, a hand-run fix).
-- One notification per statement; PostgreSQL folds identical ones of a transaction into one.

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_coins_price_changed()
-- Created in drizzle/0003_coin_price_changed_at.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Kept by the database whoever writes the price (refresh job, admin, seed), by the database's clock.
CREATE OR REPLACE FUNCTION public.cp_coins_price_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  NEW.price_changed_at := clock_timestamp();
  RETURN NEW;
END
$function$;

CREATE TRIGGER coins_price_changed BEFORE UPDATE OF current_price ON public.coins FOR EACH ROW WHEN ((old.current_price IS DISTINCT FROM new.current_price)) EXECUTE FUNCTION cp_coins_price_changed();

-- ---------------------------------------------------------------------------------------------------------------------
-- function coinpurse_reference_changed()
-- Created in drizzle/0004_reference_data_notify.sql.
-- Changed in drizzle/0050_fees.sql.
-- ---------------------------------------------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION public.coinpurse_reference_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_notify('coinpurse_reference', TG_TABLE_NAME);
  RETURN NULL;
END
$function$;

CREATE TRIGGER coins_reference_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.coins FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
CREATE TRIGGER fee_schedule_reference_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.fee_schedule FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
CREATE TRIGGER supported_tokens_reference_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.supported_tokens FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
CREATE TRIGGER token_networks_reference_changed AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON public.token_networks FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
