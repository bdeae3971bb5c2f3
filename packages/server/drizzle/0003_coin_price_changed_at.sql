ALTER TABLE "coins" ADD COLUMN "price_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Kept by the database whoever writes the price (refresh job, admin, seed), by the database's clock.
CREATE OR REPLACE FUNCTION cp_coins_price_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.price_changed_at := clock_timestamp();
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER coins_price_changed BEFORE UPDATE OF current_price ON coins
FOR EACH ROW WHEN (OLD.current_price IS DISTINCT FROM NEW.current_price) EXECUTE FUNCTION cp_coins_price_changed();
