import { Toaster } from 'react-hot-toast';

/** Toasts per spec §9: success 2000 ms, loading until dismissed, others 3500 ms, max width 350px, top-center. */
export function AppToaster() {
  return (
    <Toaster
      position="top-center"
      toastOptions={{
        duration: 3500,
        style: { maxWidth: '350px' },
        success: { duration: 2000 },
        loading: { duration: 6_000_000 },
      }}
    />
  );
}
