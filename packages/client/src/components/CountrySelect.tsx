import { useMemo } from 'react';
import { countryOptions } from '../lib/countryNames';

/**
 * Country of Residence: every ISO 3166-1 country in the reader's language; the value is its alpha-2 code. A value that
 * is no country (kept from before countries were checked) stays shown, as it is, until another one is picked.
 */
export function CountrySelect(props: { id: string; name?: string; value: string; onChange: (code: string) => void }) {
  const options = useMemo(() => countryOptions(), []);
  const unknown = props.value !== '' && !options.some((option) => option.code === props.value);
  return (
    <select id={props.id} name={props.name} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
      <option value="">Select a country</option>
      {unknown ? <option value={props.value}>{props.value}</option> : null}
      {options.map((option) => (
        <option key={option.code} value={option.code}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
