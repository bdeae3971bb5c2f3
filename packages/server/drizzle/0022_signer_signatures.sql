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
