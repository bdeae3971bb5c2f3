-- The signer process's own record of what it signed (README "Signer process"): one payment per withdrawal, one
-- replacement per replaced payment, one sweep and one gas top-up per sweep. A repeated request gets the same bytes
-- back; an EVM nonce is reserved in the same transaction that stores its record, so an API that dies after the
-- signer answered finds the same bytes (and nonce) when it asks again: no gap, no second payment.
CREATE TABLE "signer_signatures" (
  "id" bigserial PRIMARY KEY,
  "kind" text NOT NULL CHECK ("kind" IN ('payout', 'replacement', 'sweep', 'top_up')),
  -- The withdrawal (transactions.id) of a payout or replacement; the sweep (sweeps.id) of a sweep or top-up.
  "subject_id" uuid NOT NULL,
  "network" text NOT NULL,
  -- A replacement: the txid of the payment it replaces ('' otherwise).
  "replaces_txid" text NOT NULL DEFAULT '',
  -- EVM: the sending address and nonce; UTXO: the inputs spent ("txid:vout", sorted).
  "from_address" text,
  "nonce" numeric(78, 0),
  "inputs" text[],
  "txid" text NOT NULL,
  "raw_tx" text NOT NULL,
  "fee_base" numeric(78, 0) NOT NULL,
  "charged_fee_base" numeric(78, 0),
  "amount_base" numeric(78, 0),
  "signed_at" timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signer_signatures_request" ON "signer_signatures" ("kind", "subject_id", "replaces_txid");
--> statement-breakpoint
CREATE UNIQUE INDEX "signer_signatures_txid" ON "signer_signatures" ("network", "txid");
--> statement-breakpoint
-- A withdrawal the signer signed a payment for cannot leave approved nor be voided either (as one whose payout row is
-- signed, 0011, or whose cold payment is prepared, 0020 — that rule kept as it is): the bytes left the signer, and an EVM payment holds a reserved nonce that must be sent, or every later
-- payment from the hot address would wait behind the gap. The API's next run gets those very bytes and sends them.
CREATE OR REPLACE FUNCTION "payouts_guard_transaction"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF (NEW.status IS DISTINCT FROM OLD.status OR NEW.voided_at IS DISTINCT FROM OLD.voided_at)
		AND (
			EXISTS (
				SELECT 1 FROM payouts p WHERE p.transaction_id = OLD.id
					AND p.state NOT IN ('approved', 'awaiting_funds', 'failed')
					AND NOT (p.state = 'awaiting_cold_signature' AND p.unsigned_tx IS NULL)
			)
			OR EXISTS (SELECT 1 FROM signer_signatures s WHERE s.kind = 'payout' AND s.subject_id = OLD.id)
		) THEN
		RAISE EXCEPTION 'withdrawal % is being paid on chain', OLD.id USING ERRCODE = 'CP011';
	END IF;
	RETURN NEW;
END;
$$;
