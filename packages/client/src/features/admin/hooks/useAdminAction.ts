import { useCallback, useState } from 'react';
import { adminToast, serverMessage } from '../components/adminToast';

export interface ActionMessages {
  /** Toasted when the request succeeds. */
  success: string;
  /** Shown (and, with `toastFailure`, toasted) when the server gives no message of its own. */
  failure: string;
  toastFailure?: boolean;
}

/** The terse failure most admin forms show and toast when the server gives no reason. */
export const FAILED = { failure: 'Failed', toastFailure: true } as const;

/**
 * One admin request with its feedback: a success toast and a cleared error, or the server's message as the error (the
 * failure text is toasted when asked). Resolves to whether the request succeeded.
 */
export function useAdminAction() {
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (request: () => Promise<unknown>, { success, failure, toastFailure = false }: ActionMessages) => {
    try {
      await request();
    } catch (problem) {
      console.error(problem);
      setError(serverMessage(problem, failure));
      if (toastFailure) adminToast.error(failure);
      return false;
    }
    adminToast.success(success);
    setError(null);
    return true;
  }, []);
  return { error, setError, run };
}
