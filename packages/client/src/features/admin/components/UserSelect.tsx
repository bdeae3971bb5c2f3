import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { type AdminUser, useAdminUsersQuery } from '../store/adminApi';
import { serverMessage } from '../lib/adminToast';
import { FormError } from './Field';
import './UserSelect.css';

const MATCHES = 10;
const DEBOUNCE_MS = 250;

/** The value after the user stops typing for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const describeUser = (user: Pick<AdminUser, 'name' | 'email'>) => `${user.name} (${user.email})`;

/**
 * A search-as-you-type customer picker (WAI-ARIA combobox with a listbox popup): type part of the email or name, pick
 * with the arrow keys and Enter or a click; the server searches (never the whole table in the browser).
 */
export function UserSelect({
  value,
  onChange,
  label = 'User',
  initialUser,
}: {
  value: string;
  onChange: (userId: string) => void;
  label?: string;
  /** Shown when the picker opens with a user already chosen (the per-user page). */
  initialUser?: Pick<AdminUser, '_id' | 'name' | 'email'>;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const [text, setText] = useState(initialUser && initialUser._id === value ? describeUser(initialUser) : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const term = useDebounced(text.trim(), DEBOUNCE_MS);
  const searching = open && term.length > 0;
  const users = useAdminUsersQuery({ search: term, limit: MATCHES }, { skip: !searching });
  const options = searching ? (users.data?.items ?? []) : [];

  useEffect(() => setActive(-1), [term]);

  const choose = (user: AdminUser) => {
    onChange(user._id);
    setText(describeUser(user));
    setOpen(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (options.length ? (index + 1) % options.length : -1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (options.length ? (index <= 0 ? options.length - 1 : index - 1) : -1));
    } else if (event.key === 'Enter' && open && active >= 0 && options[active]) {
      event.preventDefault();
      choose(options[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const status = !searching
    ? ''
    : users.isFetching && !users.data
      ? 'Searching…'
      : options.length === 0
        ? 'No customer matches.'
        : `${options.length}${users.data?.nextCursor ? '+' : ''} customers found.`;

  return (
    <div className="admin-field user-combobox">
      <label htmlFor={id}>{label}</label>
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open && options.length > 0}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={hintId}
        autoComplete="off"
        placeholder="Type part of the email or name"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          if (value) onChange('');
        }}
        onFocus={() => text && setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={onKeyDown}
      />
      <small id={hintId} className="hint" aria-live="polite">
        {status}
      </small>
      {open && options.length > 0 ? (
        <ul id={listId} role="listbox" className="combobox-list" aria-label={`${label} matches`}>
          {options.map((user, index) => (
            <li
              key={user._id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active || user._id === value}
              className={index === active ? 'active' : undefined}
              // mousedown, not click: the input's blur would close the list first.
              onMouseDown={(event) => {
                event.preventDefault();
                choose(user);
              }}
            >
              {user.name} <span className="muted">{user.email}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <FormError message={searching && users.isError ? serverMessage(users.error, 'The users could not be loaded.') : null} />
    </div>
  );
}
