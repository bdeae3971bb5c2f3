import { useEffect, useRef, useState } from 'react';

/**
 * A form field that starts at the server's value and follows it while the person has not edited it. A refetch that
 * lands while they edit (the one a save of another field triggers, say) leaves their edit alone.
 */
export function useServerField(serverValue: string): [string, (value: string) => void] {
  const [value, setValue] = useState(serverValue);
  const lastServerValue = useRef(serverValue);
  useEffect(() => {
    const previous = lastServerValue.current;
    if (previous === serverValue) return;
    lastServerValue.current = serverValue;
    setValue((current) => (current === previous ? serverValue : current));
  }, [serverValue]);
  return [value, setValue];
}
