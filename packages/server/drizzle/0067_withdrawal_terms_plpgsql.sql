-- cp_withdrawal_terms and cp_withdrawal_fee as PL/pgSQL (issue 36's note), as 0064 did for cp_fee_schedule: a
-- LANGUAGE sql function with a SET clause is never inlined, and called from PL/pgSQL it is planned again on every call.
-- Both are on every send's path (cp_send reads the terms under its locks; the Send confirm step reads them first).
-- Same answers: the network's entry of the token's schedule, else the token's withdrawal fee with the network fee
-- passed through (mode 'network'), else 0.
CREATE OR REPLACE FUNCTION cp_withdrawal_fee(p_token text) RETURNS numeric
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (cp_fee_schedule(p_token)).withdrawal_fee;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cp_withdrawal_terms(p_token text, p_network text, OUT mode text, OUT fee numeric)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_entry jsonb;
BEGIN
  SELECT withdrawal_networks->p_network INTO v_entry FROM fee_schedule WHERE token = p_token;
  mode := coalesce(v_entry->>'mode', 'network');
  fee := coalesce((v_entry->>'fee')::numeric, cp_withdrawal_fee(p_token));
END
$$;
