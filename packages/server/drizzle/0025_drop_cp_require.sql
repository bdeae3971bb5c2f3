-- cp_require (0002) guarded the one-statement money operations of the first ledger: a CTE called it to abort with a
-- CP code. Every money operation is now one function of its own (0012 and later) that checks its rules with
-- IF … THEN RAISE, and nothing calls cp_require any more, in SQL or TypeScript.
DROP FUNCTION cp_require(boolean, text, text);
