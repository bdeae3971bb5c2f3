-- Each money operation plans its statements once per connection and keeps the plan. PL/pgSQL plans a statement with
-- the values of its first calls and then keeps a generic plan only when the planner estimates it no dearer; for the
-- statements that read their rows from array arguments (unnest of the moves, = ANY of the tokens) it kept re-planning
-- on every call, which was about a sixth of a swap's time in PostgreSQL. Every statement of these functions finds its
-- rows by a primary or unique key, so a generic plan is the right plan whatever the values; the setting holds for the
-- functions they call too (cp_post, the account and rule helpers). An operation added later takes the same setting
-- (test/integration/ledger-functions.test.ts checks every function the server calls).
DO $$
DECLARE
  v_function regprocedure;
BEGIN
  FOR v_function IN
    SELECT oid::regprocedure FROM pg_proc
    WHERE pronamespace = current_schema()::regnamespace
      AND proname = ANY (ARRAY[
        'cp_send', 'cp_swap', 'cp_deposit', 'cp_set_transaction_status', 'cp_void_transaction',
        'cp_plan_transaction_status', 'cp_plan_void_transaction', 'cp_adjust_balance', 'cp_lock_customer_balance',
        'cp_credit_chain_deposit', 'cp_drop_chain_deposit', 'cp_reverse_chain_deposit', 'cp_keep_chain_deposit',
        'cp_plan_chain_deposit_reversal', 'cp_fail_payout', 'cp_complete_payout', 'cp_record_sweep'
      ])
  LOOP
    EXECUTE format('ALTER FUNCTION %s SET plan_cache_mode = force_generic_plan', v_function);
  END LOOP;
END
$$;
