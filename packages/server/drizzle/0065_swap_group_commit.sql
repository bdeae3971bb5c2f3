-- Group commit of swaps (issue 36). The swaps an instance receives while its earlier ones are being written go to
-- PostgreSQL together: one call of cp_swap_batch, one round trip, one transaction, one commit for the batch. Each swap
-- is still cp_swap with every rule, in a subtransaction of its own: a swap refused (or failing) rolls back alone, and its
-- SQLSTATE and message come back in its place ({"state", "message"}; {} for a swap written); the others commit
-- together. The caller (src/modules/ledger/group-commit.ts) keeps a batch to at most 32 swaps (PostgreSQL keeps 64
-- subtransactions per transaction in shared memory before every snapshot must look them up elsewhere), never sends
-- one customer's swaps in two batches at once, and runs a swap answered with a deadlock again.
-- Each element: cp_swap's 19 values in its parameters' order (jsonb ones as JSON, the others as JSON strings or numbers).
CREATE OR REPLACE FUNCTION cp_swap_batch(p_swaps jsonb) RETURNS jsonb
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_swap jsonb;
  v_results jsonb[] := '{}';
BEGIN
  FOR v_swap IN SELECT value FROM jsonb_array_elements(p_swaps) LOOP
    BEGIN
      PERFORM cp_swap((v_swap->>0)::uuid, (v_swap->>1)::uuid, v_swap->>2, v_swap->>3, (v_swap->>4)::numeric,
        (v_swap->>5)::numeric, (v_swap->>6)::numeric, (v_swap->>7)::numeric, (v_swap->>8)::numeric, v_swap->>9,
        nullif(v_swap->10, 'null'), (v_swap->>11)::timestamptz, (v_swap->>12)::int, (v_swap->>13)::int,
        nullif(v_swap->14, 'null'), nullif(v_swap->15, 'null'), (v_swap->>16)::uuid, (v_swap->>17)::numeric,
        (v_swap->>18)::numeric);
      v_results := v_results || '{}'::jsonb;
    EXCEPTION WHEN OTHERS THEN
      v_results := v_results || jsonb_build_object('state', SQLSTATE, 'message', SQLERRM);
    END;
  END LOOP;
  RETURN to_jsonb(v_results);
END
$$;
