import { Field } from './Field';

/** A labelled select: an empty first option (e.g. 'All types'), then one option per value, shown as is or by its label. */
export function ChoiceSelect<T extends string>({
  label,
  none,
  values,
  value,
  onChange,
  labels,
}: {
  label: string;
  none: string;
  values: readonly T[];
  value: T | '';
  onChange: (value: T | '') => void;
  labels?: Readonly<Record<T, string>>;
}) {
  return (
    <Field label={label}>
      <select value={value} onChange={(event) => onChange(event.target.value as T | '')}>
        <option value="">{none}</option>
        {values.map((item) => (
          <option key={item} value={item}>
            {labels?.[item] ?? item}
          </option>
        ))}
      </select>
    </Field>
  );
}
