-- The customer's money operations: a send (a withdrawal request, held until it is paid) and a swap. Each is one call
-- and one round trip; TypeScript quotes the prices, computes the quantities and writes the texts, and maps the raised
-- codes to its errors (see the header of 0012_ledger_core.sql). Codes of their own:
--   CPS01  two-factor sign-in is on and no fresh code was checked
--   CPA01  the address allowlist is on and the destination is not in the address book
--   CPA02  the address book entry is still on hold      MESSAGE: {"label", "usableAtMs"}

-- CPS01 when the user has two-factor sign-in on and the caller did not check a code for this request.
CREATE FUNCTION cp_require_second_factor(p_user uuid, p_code_checked boolean) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT p_code_checked AND EXISTS (SELECT 1 FROM two_factor WHERE user_id = p_user AND enabled_at IS NOT NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'CPS01', MESSAGE = 'second factor required';
  END IF;
END
$$;
--> statement-breakpoint

-- With the user's address allowlist on, a send goes only to a destination saved in their address book (memo
-- included) whose hold after saving has ended: CPA01 / CPA02.
CREATE FUNCTION cp_require_send_allowed(p_user uuid, p_token text, p_network text, p_address text, p_memo text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_entry record;
BEGIN
  IF NOT coalesce((SELECT allowlist_enabled FROM withdrawal_settings WHERE user_id = p_user), false) THEN
    RETURN;
  END IF;
  SELECT label, usable_at INTO v_entry FROM address_book
  WHERE user_id = p_user AND token = p_token AND network = p_network AND address = p_address AND coalesce(memo, '') = coalesce(p_memo, '')
  LIMIT 1;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CPA01', MESSAGE = '';
  END IF;
  IF v_entry.usable_at > now() THEN
    RAISE EXCEPTION USING ERRCODE = 'CPA02',
      MESSAGE = json_build_object('label', v_entry.label, 'usableAtMs', floor(extract(epoch FROM v_entry.usable_at) * 1000))::text;
  END IF;
END
$$;
--> statement-breakpoint

-- A send: the customer's quantity moves to the pending withdrawals (until an admin or the payout job settles or
-- rejects it), with the pending withdrawal row, the notification, the audit entry and the security mail.
CREATE FUNCTION cp_send(
  p_transaction uuid, p_user uuid, p_token text, p_network text, p_address text, p_memo text,
  p_quantity numeric, p_usd numeric, p_price numeric, p_details jsonb, p_at timestamptz,
  p_code_checked boolean, p_price_grace_ms int, p_shard int, p_key jsonb, p_records jsonb
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_second_factor(p_user, p_code_checked);
  PERFORM cp_require_live_tokens(ARRAY[p_token]);
  PERFORM cp_require_send_allowed(p_user, p_token, p_network, p_address, p_memo);
  PERFORM cp_require_price(p_token, p_price, p_price_grace_ms);

  PERFORM cp_post('withdrawal_hold', p_transaction, 'withdrawal requested', p_user,
    cp_transfer(cp_customer_account(p_user, p_token), cp_platform_account('withdrawals_pending', p_token, p_shard), p_quantity));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'withdrawal', p_token, p_network, p_address, p_quantity, p_usd, p_price, 'pending', 'out', NULL, p_details, p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$$;
--> statement-breakpoint

-- A swap at the quoted prices: the customer's `from` quantity goes to the swap pool, the pool pays out the `to`
-- quantity, with the swap row and the audit entry.
CREATE FUNCTION cp_swap(
  p_transaction uuid, p_user uuid, p_from text, p_to text, p_from_quantity numeric, p_to_quantity numeric,
  p_usd numeric, p_from_price numeric, p_to_price numeric, p_note text, p_details jsonb, p_at timestamptz,
  p_price_grace_ms int, p_shard int, p_key jsonb, p_records jsonb
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF p_key IS NOT NULL THEN
    PERFORM cp_claim_key(p_key);
  END IF;
  PERFORM cp_require_live_tokens(ARRAY[p_from, p_to]);
  PERFORM cp_require_price(p_from, p_from_price, p_price_grace_ms);
  PERFORM cp_require_price(p_to, p_to_price, p_price_grace_ms);

  PERFORM cp_post('swap', p_transaction, 'swap ' || p_from || ' to ' || p_to, p_user,
    cp_transfer(cp_customer_account(p_user, p_from), cp_platform_account('swap_pool', p_from, p_shard), p_from_quantity)
    || cp_transfer(cp_platform_account('swap_pool', p_to, p_shard), cp_customer_account(p_user, p_to), p_to_quantity));

  INSERT INTO transactions (id, user_id, type, token, network, address, coin_amount, usd_amount, price, status, direction, note, details, created_by, created_at, updated_at)
  VALUES (p_transaction, p_user, 'swap', p_from, NULL, NULL, p_from_quantity, p_usd, p_from_price, 'approved', 'out', p_note, p_details, p_user, p_at, p_at);
  PERFORM cp_write_records(p_records);
END
$$;
