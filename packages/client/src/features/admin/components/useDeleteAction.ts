import { useConfirmDelete } from './ConfirmDialog';
import { type ActionMessages, useAdminAction } from '../hooks/useAdminAction';

interface DeleteOptions extends ActionMessages {
  /** Reload the list after a refused delete too (by default only after a successful one). */
  reloadOnFailure?: boolean;
}

/**
 * A row delete: asks 'Are you sure you want to delete?', runs the request with its toasts, then reloads the list.
 * `error` is the last delete's error; render `dialog`.
 */
export function useDeleteAction(reload: () => unknown) {
  const { ask, dialog } = useConfirmDelete();
  const { error, run } = useAdminAction();
  const remove = (request: () => Promise<unknown>, { reloadOnFailure = false, ...messages }: DeleteOptions) =>
    ask(async () => {
      if ((await run(request, messages)) || reloadOnFailure) reload();
    });
  return { remove, error, dialog };
}
