import { useState } from 'react';

/** What a page's modal is open for (null when closed); `done` closes it and reloads the list. */
export function useModalTarget<T>(reload: () => unknown) {
  const [target, setTarget] = useState<T | null>(null);
  const close = () => setTarget(null);
  const done = () => {
    setTarget(null);
    reload();
  };
  return { target, open: setTarget, close, done };
}
