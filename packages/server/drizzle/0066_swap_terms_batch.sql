-- The terms of many swaps priced now in one statement (issue 36): a swap under a charging fee schedule reads its terms
-- (cp_swap_terms) before it is sent, and concurrent swaps read theirs together, as they are then written together
-- (0065). Each element: cp_swap_terms' five values in order (from, to, from quantity, from price, to price); the
-- answer: their terms in the same order. Only a read: cp_swap checks the terms again under its locks (CPF01).
CREATE OR REPLACE FUNCTION cp_swap_terms_batch(p_swaps jsonb) RETURNS jsonb
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN (
    SELECT coalesce(jsonb_agg(cp_swap_terms(s->>0, s->>1, (s->>2)::numeric, (s->>3)::numeric, (s->>4)::numeric) ORDER BY n), '[]')
    FROM jsonb_array_elements(p_swaps) WITH ORDINALITY AS e(s, n)
  );
END
$$;
