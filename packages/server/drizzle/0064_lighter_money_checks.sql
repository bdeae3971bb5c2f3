-- Lighter checks inside the money functions (issue 36): the same rules, cheaper to ask under concurrency.
-- * cp_fee_schedule is PL/pgSQL: a LANGUAGE sql function returning a record is planned again on every call from
--   PL/pgSQL (its plan is not kept between calls), about a tenth of a swap's time in PostgreSQL; PL/pgSQL keeps its plan.
-- * cp_require_live_tokens no longer share-locks the supported_tokens rows. Every swap locking the same two or three rows
--   made PostgreSQL create a multixact (written to the WAL) per lock once two swaps overlapped. The money operations
--   now hold a shared advisory lock per token (lock manager only) and read the rows. A change of a token takes that
--   lock exclusively (cp_lock_token_change): the admin's removal right after it locks the row FOR UPDATE, before it
--   checks that no customer holds the token, and every UPDATE or DELETE of a supported_tokens row by trigger
--   (supported_tokens_live_lock). So a removal still waits for the operations in flight on the token, and an operation
--   after it sees it removed: the guarantee the row share lock gave.
-- * cp_require_unfrozen locks the customer's users row FOR KEY SHARE instead of FOR SHARE: the freeze's FOR UPDATE
--   still conflicts with it (a send or swap either commits before the freeze or sees it), the transaction row's
--   foreign key check takes the same lock anyway, and other changes of the customer's row no longer wait for their
--   money operations.
CREATE OR REPLACE FUNCTION cp_fee_schedule(p_token text, OUT spread_bps integer, OUT fee_bps integer, OUT fee_min_usd numeric,
  OUT withdrawal_fee numeric, OUT min_position_usd numeric, OUT inventory numeric)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT coalesce(t.swap_spread_bps, d.swap_spread_bps, 0), coalesce(d.swap_fee_bps, 0), coalesce(d.swap_fee_min_usd, 0),
    coalesce(t.withdrawal_fee, 0), coalesce(t.house_min_position_usd, d.house_min_position_usd, 0), t.inventory
  INTO spread_bps, fee_bps, fee_min_usd, withdrawal_fee, min_position_usd, inventory
  FROM (SELECT 1) AS one
  LEFT JOIN fee_schedule AS d ON d.token = '*'
  LEFT JOIN fee_schedule AS t ON t.token = p_token;
END
$$;
--> statement-breakpoint
-- CPT01 (MESSAGE: the token) unless every token is supported and not removed. Holds a shared advisory lock per token
-- until the caller commits: a change of the token waits for it (cp_lock_token_change).
CREATE OR REPLACE FUNCTION cp_require_live_tokens(p_tokens text[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_gone text;
BEGIN
  PERFORM pg_advisory_xact_lock_shared(hashtext('cp_live_token'), hashtext(token)) FROM unnest(p_tokens) AS token ORDER BY token;
  -- A new statement, so a new snapshot: a removal that committed while this waited is seen.
  SELECT token INTO v_gone FROM unnest(p_tokens) AS token
  WHERE NOT EXISTS (SELECT 1 FROM supported_tokens WHERE coin_id = token AND deleted_at IS NULL)
  LIMIT 1;
  IF v_gone IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CPT01', MESSAGE = v_gone;
  END IF;
END
$$;
--> statement-breakpoint
-- A change of the token (removed, re-pointed, edited): its advisory lock, exclusively, until the change commits. It
-- waits for the money operations in flight on the token (cp_require_live_tokens), and new ones wait for it.
CREATE OR REPLACE FUNCTION cp_lock_token_change(p_coin text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('cp_live_token'), hashtext(p_coin));
$$;
--> statement-breakpoint
-- Before a supported_tokens row changes: cp_lock_token_change of its token.
CREATE OR REPLACE FUNCTION cp_lock_changing_token() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cp_lock_token_change(OLD.coin_id);
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;
--> statement-breakpoint
CREATE TRIGGER supported_tokens_live_lock BEFORE UPDATE OR DELETE ON supported_tokens
FOR EACH ROW EXECUTE FUNCTION cp_lock_changing_token();
--> statement-breakpoint
-- CPZ01 when the customer's account is frozen. Key-share locks the customer's row until the caller commits (the
-- freeze locks it FOR UPDATE), then reads account_freezes in a new statement.
CREATE OR REPLACE FUNCTION cp_require_unfrozen(p_user uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users WHERE id = p_user FOR KEY SHARE;
  IF EXISTS (SELECT 1 FROM account_freezes WHERE user_id = p_user) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPZ01', MESSAGE = '';
  END IF;
END
$$;
