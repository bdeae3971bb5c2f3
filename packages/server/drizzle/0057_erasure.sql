-- Erasure of a closed account (issue 35): when an admin erased its personal data. The id stays: the ledger, the
-- History and the audit keep their rows under it, a pseudonym once the name, email and documents are gone.
ALTER TABLE "users" ADD COLUMN "erased_at" timestamp with time zone;