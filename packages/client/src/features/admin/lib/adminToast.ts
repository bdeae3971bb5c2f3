import toast from 'react-hot-toast';

/** Admin-side toasts close after 5000 ms (spec §9). */
const ADMIN_TOAST = { duration: 5000 } as const;

export const adminToast = {
  success: (message: string) => toast.success(message, ADMIN_TOAST),
  error: (message: string) => toast.error(message, ADMIN_TOAST),
};

/** The server's `{ statusCode, error }` message, or the fallback. */
export function serverMessage(error: unknown, fallback: string): string {
  const data = (error as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' && data.error ? data.error : fallback;
}
