import { useEffect, useState } from 'react';
import { Field } from './Field';

/** A list's search field: reports the trimmed text once typing pauses (the server searches). */
export function SearchBox({ label, placeholder, onSearch }: { label: string; placeholder?: string; onSearch: (term: string) => void }) {
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <Field label={label}>
      <input type="search" value={text} placeholder={placeholder} onChange={(event) => setText(event.target.value)} autoComplete="off" />
    </Field>
  );
}
