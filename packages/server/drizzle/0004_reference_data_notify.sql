-- Reference data (coins and their prices, supported tokens, token networks) is cached in each instance's memory. Any
-- change to these tables announces itself on the coinpurse_reference channel: the NOTIFY is sent when (and only if) the
-- changing transaction commits, whichever code path made the change (refresh job, admin, seed, a hand-run fix).
-- One notification per statement; PostgreSQL folds identical ones of a transaction into one.
CREATE OR REPLACE FUNCTION coinpurse_reference_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('coinpurse_reference', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER coins_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON coins
  FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
--> statement-breakpoint
CREATE TRIGGER supported_tokens_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON supported_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
--> statement-breakpoint
CREATE TRIGGER token_networks_reference_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON token_networks
  FOR EACH STATEMENT EXECUTE FUNCTION coinpurse_reference_changed();
