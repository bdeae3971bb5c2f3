import { useCallback, useState } from 'react';
import { adminToast, serverMessage } from '../lib/adminToast';

export interface ActionMessages {
  /** Toasted when the request succeeds. */
  success: string;
  /** Shown (and, with `toastFailure`, toasted) when the server gives no message of its own. */
  failure: string;
  toastFailure?: boolean;
}

/** The terse failure most admin forms show and toast when the server gives no reason. */
export const FAILED = { failure: 'Failed', toastFailure: true } as const;

/** A money action at or above the approval threshold answers 202 with this body: nothing happened yet. */
export function isPendingApproval(body: unknown): body is { pendingApproval: true; approvalId: string; message: string } {
  return typeof body === 'object' && body !== null && (body as { pendingApproval?: unknown }).pendingApproval === true;
}

/**
 * One admin request with its feedback: a success toast and a cleared error, or the server's message as the error (the
 * failure text is toasted when asked). A four-eyes hold toasts "Sent for approval…" instead of the success text.
 * Resolves to whether the request succeeded.
 */
export function useAdminAction() {
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (request: () => Promise<unknown>, { success, failure, toastFailure = false }: ActionMessages) => {
    let result: unknown;
    try {
      result = await request();
    } catch (problem) {
      console.error(problem);
      setError(serverMessage(problem, failure));
      if (toastFailure) adminToast.error(failure);
      return false;
    }
    adminToast.success(isPendingApproval(result) ? result.message || 'Sent for approval by a second admin.' : success);
    setError(null);
    return true;
  }, []);
  return { error, setError, run };
}
