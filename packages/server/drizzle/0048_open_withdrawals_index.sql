-- Withdrawals not on the chain yet (pending, or approved without a txHash): what the admin dashboard counts and the
-- Transactions "waiting" filters list (WithdrawalQueues). A small set however many withdrawals were ever settled.
CREATE INDEX "transactions_open_withdrawals_idx" ON "transactions" USING btree ("seq") WHERE "transactions"."type" = 'withdrawal' and "transactions"."voided_at" is null and ("transactions"."status" = 'pending' or ("transactions"."status" = 'approved' and not ("transactions"."details" ? 'txHash')));
