CREATE TABLE "price_points" (
	"coin_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	CONSTRAINT "price_points_coin_id_at_pk" PRIMARY KEY("coin_id","at")
);
--> statement-breakpoint
ALTER TABLE "price_points" ADD CONSTRAINT "price_points_coin_id_coins_id_fk" FOREIGN KEY ("coin_id") REFERENCES "public"."coins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_points_at_idx" ON "price_points" USING btree ("at");--> statement-breakpoint
-- Every stored price becomes the first point of its coin's history (custom tokens: their current manual price).
INSERT INTO "price_points" ("coin_id", "at", "price") SELECT "id", "last_updated", "current_price" FROM "coins" ON CONFLICT DO NOTHING;
