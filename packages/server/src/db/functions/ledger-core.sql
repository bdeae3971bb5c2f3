-- GENERATED FILE, do not edit. Written by `pnpm --filter @coinpurse/server db:functions` (src/scripts/dump-functions.ts);
-- test/integration/sql-functions.test.ts fails when it and the migrations disagree. To change a function, write a
-- new migration in drizzle/ (CREATE OR REPLACE FUNCTION ...), run the command and commit what it writes.
--
-- The "ledger-core" family: the current definition of each function (and composite type) first created by
--   drizzle/0012_ledger_core.sql
--   drizzle/0064_lighter_money_checks.sql
-- (a function stays in the family of the migration that created it; the families are named in FAMILIES,
-- src/db/function-definitions.ts). Read from a database migrated with every file of drizzle/: pg_get_functiondef,
-- then the triggers that execute the function; in the order the migrations created them. Above each, the comment
-- of the migration that created it, and of each migration that changed it since.

-- From the header of drizzle/0012_ledger_core.sql:
--
-- The ledger's core, in SQL: the only way money moves. Every money operation is one function (0013 and later) that
-- checks its rules with IF … THEN RAISE, in the order a reader expects, and then calls cp_post to write the movement.
--
-- Errors every function may raise (SQLSTATE class CP, unused by PostgreSQL; the TypeScript side maps each code to its
-- typed domain error, see packages/server/src/modules/ledger/money-errors.ts):
--   CPI01  a customer balance would go below zero        MESSAGE: the token
--   CPK01  the Idempotency-Key is taken                   (the caller replays the stored answer)
--   CPT01  a token is not (or no longer) supported        MESSAGE: the token
--   CPP01  a price is no longer the one quoted            MESSAGE: the token
-- Functions add codes of their own in their header.
--
-- Locks, the same order everywhere so two movements never deadlock: the operation's own rows first (idempotency key,
-- transaction row, share locks on tokens), then the customer accounts in id order, then the platform accounts in id
-- order — the hottest rows are held for the shortest time.

-- From the header of drizzle/0064_lighter_money_checks.sql:
--
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

-- ---------------------------------------------------------------------------------------------------------------------
-- type cp_move
-- Created in drizzle/0012_ledger_core.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A movement of one account in a posting.
CREATE TYPE public.cp_move AS (account uuid, amount numeric);

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_customer_account(uuid,text)
-- Created in drizzle/0012_ledger_core.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The id of a customer's account in a token, created when missing (a concurrent creator wins silently).
CREATE OR REPLACE FUNCTION public.cp_customer_account(p_user uuid, p_token text)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_id uuid;
BEGIN
  SELECT id INTO v_id FROM ledger_accounts WHERE kind = 'customer' AND user_id = p_user AND token = p_token;
  IF v_id IS NULL THEN
    INSERT INTO ledger_accounts (kind, user_id, token) VALUES ('customer', p_user, p_token) ON CONFLICT DO NOTHING;
    SELECT id INTO v_id FROM ledger_accounts WHERE kind = 'customer' AND user_id = p_user AND token = p_token;
  END IF;
  RETURN v_id;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_platform_account(text,text,integer)
-- Created in drizzle/0012_ledger_core.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The id of a platform account (deposits, withdrawals_pending, withdrawals_settled, swap_pool, adjustments) in a token,
-- created when missing. A shard (1..64, chosen by the caller) spreads the row locks of a hot account over several rows:
-- `swap_pool#3` is an ordinary account, and together the shards are the platform account. NULL: the unsharded row.
CREATE OR REPLACE FUNCTION public.cp_platform_account(p_code text, p_token text, p_shard integer)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_code text := CASE WHEN p_shard IS NULL THEN p_code ELSE p_code || '#' || p_shard END;
  v_id uuid;
BEGIN
  SELECT id INTO v_id FROM ledger_accounts WHERE kind = 'platform' AND platform_code = v_code AND token = p_token;
  IF v_id IS NULL THEN
    INSERT INTO ledger_accounts (kind, platform_code, token) VALUES ('platform', v_code, p_token) ON CONFLICT DO NOTHING;
    SELECT id INTO v_id FROM ledger_accounts WHERE kind = 'platform' AND platform_code = v_code AND token = p_token;
  END IF;
  RETURN v_id;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_post(text,uuid,text,uuid,cp_move[])
-- Created in drizzle/0012_ledger_core.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Posts one journal entry: each move adds its amount to its account's balance and is written as a line. The lines of
-- every token sum to zero. Customer accounts are updated first, then platform accounts, each in id order. A customer
-- balance that would go below zero raises CPI01 (MESSAGE: the token) and nothing is written; the table's CHECK on
-- customer balances stays as a second wall. Moves that net to nothing write no entry (NULL is returned).
CREATE OR REPLACE FUNCTION public.cp_post(p_kind text, p_transaction uuid, p_reason text, p_created_by uuid, p_moves cp_move[])
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_entry uuid := gen_random_uuid();
  v_move record;
  v_accounts uuid[] := '{}';
  v_tokens text[] := '{}';
  v_amounts numeric[] := '{}';
  v_sum_tokens text[] := '{}';
  v_sums numeric[] := '{}';
  v_at int;
BEGIN
  -- The accounts moved (net per account), locked customers first, then by id: the same order everywhere. A locked row
  -- is read in its newest version, so the balance checked is the one the update adds to.
  FOR v_move IN
    SELECT a.id, a.kind, a.token, a.balance, m.amount
    FROM (SELECT account, sum(amount) AS amount FROM unnest(p_moves) GROUP BY account) AS m
    JOIN ledger_accounts AS a ON a.id = m.account
    ORDER BY a.kind <> 'customer', a.id
    FOR NO KEY UPDATE OF a
  LOOP
    v_at := array_position(v_sum_tokens, v_move.token);
    IF v_at IS NULL THEN
      v_sum_tokens := v_sum_tokens || v_move.token;
      v_sums := v_sums || v_move.amount;
    ELSE
      v_sums[v_at] := v_sums[v_at] + v_move.amount;
    END IF;
    CONTINUE WHEN v_move.amount = 0;
    IF v_move.kind = 'customer' AND v_move.balance + v_move.amount < 0 THEN
      RAISE EXCEPTION USING ERRCODE = 'CPI01', MESSAGE = v_move.token;
    END IF;
    v_accounts := v_accounts || v_move.id;
    v_tokens := v_tokens || v_move.token;
    v_amounts := v_amounts || v_move.amount;
  END LOOP;
  -- Every token's lines sum to zero (else nothing of it is written: the statement aborts).
  IF EXISTS (SELECT 1 FROM unnest(v_sums) AS total WHERE total <> 0) THEN
    RAISE EXCEPTION 'ledger: the entry % does not sum to zero per token', p_kind;
  END IF;

  IF cardinality(v_accounts) = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE ledger_accounts AS a SET balance = a.balance + line.amount
  FROM unnest(v_accounts, v_amounts) AS line(account, amount)
  WHERE a.id = line.account;
  INSERT INTO journal_entries (id, kind, transaction_id, reason, created_by) VALUES (v_entry, p_kind, p_transaction, p_reason, p_created_by);
  INSERT INTO journal_lines (entry_id, account_id, token, amount)
  SELECT v_entry, line.account, line.token, line.amount FROM unnest(v_accounts, v_tokens, v_amounts) AS line(account, token, amount);
  RETURN v_entry;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_transfer(uuid,uuid,numeric)
-- Created in drizzle/0012_ledger_core.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- `amount` of `token` from one account to another: the two moves of a simple entry.
CREATE OR REPLACE FUNCTION public.cp_transfer(p_from uuid, p_to uuid, p_amount numeric)
 RETURNS cp_move[]
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT ARRAY[ROW(p_from, -p_amount)::cp_move, ROW(p_to, p_amount)::cp_move]
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_claim_key(jsonb)
-- Created in drizzle/0012_ledger_core.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Claims an Idempotency-Key with the answer it will replay (p_key: {scope, key, requestHash, status, body}; NULL: the
-- request has none). The row is uncommitted until the operation commits: a concurrent duplicate waits on it, then
-- finds it taken (CPK01) and replays the stored answer; after a rollback it claims the key itself.
CREATE OR REPLACE FUNCTION public.cp_claim_key(p_key jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF p_key IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO idempotency_keys (scope, key, request_hash, state, response_status, response_body)
  VALUES (p_key->>'scope', p_key->>'key', p_key->>'requestHash', 'done', (p_key->>'status')::int, p_key->>'body')
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CPK01', MESSAGE = 'Idempotency-Key already taken';
  END IF;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_live_tokens(text[])
-- Created in drizzle/0012_ledger_core.sql.
-- Changed in drizzle/0064_lighter_money_checks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Share-locks the supported rows of these tokens (a concurrent removal waits for the operation to commit); CPT01
-- (MESSAGE: the first token not supported) when one is not supported.
--
-- Changed in drizzle/0064_lighter_money_checks.sql:
-- CPT01 (MESSAGE: the token) unless every token is supported and not removed. Holds a shared advisory lock per token
-- until the caller commits: a change of the token waits for it (cp_lock_token_change).
CREATE OR REPLACE FUNCTION public.cp_require_live_tokens(p_tokens text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_require_price(text,numeric,integer)
-- Created in drizzle/0012_ledger_core.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- CPP01 (MESSAGE: the token) unless the token's price is still the quoted one, or changed less than p_grace_ms ago by
-- the database's clock: a request quoted just before a change still executes at its quote; a stale quote (a cache that
-- missed a change) never executes past that moment.
CREATE OR REPLACE FUNCTION public.cp_require_price(p_token text, p_price numeric, p_grace_ms integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT coalesce((
    SELECT current_price = p_price OR price_changed_at > now() - p_grace_ms * interval '1 millisecond' FROM coins WHERE id = p_token
  ), false) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPP01', MESSAGE = p_token;
  END IF;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_write_records(jsonb)
-- Created in drizzle/0012_ledger_core.sql.
-- Changed in drizzle/0026_api_keys.sql, drizzle/0061_dropped_deposits.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- The rows that tell people about an operation, written with it (p_rows: {notifications: [...], audit: [...],
-- mail: [...]}, each element the columns of its table in snake case, built by the caller): they commit with the
-- movement or not at all.
--
-- Changed in drizzle/0026_api_keys.sql:
-- cp_write_records (0012) writes the key of an audit row too; otherwise unchanged.
--
-- Changed in drizzle/0061_dropped_deposits.sql:
-- cp_write_records (0012, 0026) writes the notification's transaction_id too; otherwise unchanged.
CREATE OR REPLACE FUNCTION public.cp_write_records(p_rows jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF p_rows IS NULL THEN
    RETURN;
  END IF;
  IF p_rows ? 'notifications' THEN
    INSERT INTO notifications (id, user_id, title, message, status, read, created_by, created_at, transaction_id)
    SELECT coalesce(n.id, gen_random_uuid()), n.user_id, n.title, n.message, n.status, false, n.created_by, coalesce(n.created_at, now()),
      n.transaction_id
    FROM jsonb_populate_recordset(NULL::notifications, p_rows->'notifications') AS n;
  END IF;
  IF p_rows ? 'audit' THEN
    INSERT INTO audit_log (actor_id, actor_role, action, target_type, target_id, before, after, request_id, api_key_id)
    SELECT a.actor_id, a.actor_role, a.action, a.target_type, a.target_id, a.before, a.after, a.request_id, a.api_key_id
    FROM jsonb_populate_recordset(NULL::audit_log, p_rows->'audit') AS a;
  END IF;
  IF p_rows ? 'mail' THEN
    INSERT INTO mail_outbox ("to", subject, text, html)
    SELECT m."to", m.subject, m.text, m.html FROM jsonb_populate_recordset(NULL::mail_outbox, p_rows->'mail') AS m;
  END IF;
END
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_lock_token_change(text)
-- Created in drizzle/0064_lighter_money_checks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- A change of the token (removed, re-pointed, edited): its advisory lock, exclusively, until the change commits. It
-- waits for the money operations in flight on the token (cp_require_live_tokens), and new ones wait for it.
CREATE OR REPLACE FUNCTION public.cp_lock_token_change(p_coin text)
 RETURNS void
 LANGUAGE sql
AS $function$
  SELECT pg_advisory_xact_lock(hashtext('cp_live_token'), hashtext(p_coin));
$function$;

-- ---------------------------------------------------------------------------------------------------------------------
-- function cp_lock_changing_token()
-- Created in drizzle/0064_lighter_money_checks.sql.
-- ---------------------------------------------------------------------------------------------------------------------
-- Before a supported_tokens row changes: cp_lock_token_change of its token.
CREATE OR REPLACE FUNCTION public.cp_lock_changing_token()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM cp_lock_token_change(OLD.coin_id);
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$function$;

CREATE TRIGGER supported_tokens_live_lock BEFORE DELETE OR UPDATE ON public.supported_tokens FOR EACH ROW EXECUTE FUNCTION cp_lock_changing_token();
