-- Guards for one-statement money operations: a CTE calls cp_require(condition, sqlstate, detail); a false (or null)
-- condition aborts the whole statement with that SQLSTATE (class CP, not used by PostgreSQL), which the service maps to
-- its domain error. Volatile on purpose: the planner must neither fold nor skip the call.
CREATE OR REPLACE FUNCTION cp_require(ok boolean, code text, detail text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = code, MESSAGE = coalesce(detail, '');
  END IF;
  RETURN true;
END
$$;
