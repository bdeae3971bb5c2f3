CREATE INDEX "transactions_status_seq_idx" ON "transactions" USING btree ("status","seq") WHERE "transactions"."voided_at" is null;--> statement-breakpoint
CREATE INDEX "transactions_type_seq_idx" ON "transactions" USING btree ("type","seq") WHERE "transactions"."voided_at" is null;--> statement-breakpoint
CREATE INDEX "transactions_token_seq_idx" ON "transactions" USING btree ("token","seq") WHERE "transactions"."voided_at" is null;--> statement-breakpoint
CREATE INDEX "transactions_type_status_token_seq_idx" ON "transactions" USING btree ("type","status","token","seq") WHERE "transactions"."voided_at" is null;--> statement-breakpoint
CREATE INDEX "transactions_seq_user_idx" ON "transactions" USING btree ("seq","user_id") WHERE "transactions"."voided_at" is null;--> statement-breakpoint
-- The admin list's filters are correlated (a type has its own statuses, a token its own mix): without joint statistics
-- the planner multiplies their frequencies and, for a combination that has no rows, walks the whole table in seq order
-- expecting to fill the page early.
CREATE STATISTICS IF NOT EXISTS transactions_filter_stats (mcv) ON token, type, status FROM transactions;
--> statement-breakpoint
ANALYZE transactions;
