// The schedule form's control builders: a labelled field (with its hint and error) around a text, number or
// select control bound to one form field. Stateless: the form owns the state and the change handler.
import type { ChangeEvent, ReactElement } from 'react';
import { FIELD_PATHS, fieldId, POLICY_HINTS, type FormField, type FormState } from '../lib/form.ts';
import { Field } from './Field.tsx';

type Control = ReactElement<Record<string, unknown>>;
type OnChange = (
  name: FormField,
) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;

export interface FormControls {
  field(name: FormField, label: string, control: Control, hint?: string): ReactElement;
  text(name: FormField, extra?: Record<string, unknown>): Control;
  number(name: FormField): Control;
  select(name: FormField, options: readonly string[], empty?: string): Control;
}

/** Builders bound to `form`, its `errors` by API path, and `set` (a change handler per field). */
export function formControls(form: FormState, errors: Record<string, string>, set: OnChange): FormControls {
  const text = (name: FormField, extra: Record<string, unknown> = {}): Control => (
    <input
      type="text"
      name={FIELD_PATHS[name]}
      value={form[name]}
      onChange={set(name)}
      placeholder={POLICY_HINTS[name] ? `default ${POLICY_HINTS[name]}` : undefined}
      {...extra}
    />
  );
  return {
    field: (name, label, control, hint) => (
      <Field id={fieldId(FIELD_PATHS[name])} label={label} hint={hint} error={errors[FIELD_PATHS[name]]}>
        {control}
      </Field>
    ),
    text,
    number: (name) => text(name, { inputMode: 'numeric', type: 'number', step: 1 }),
    select: (name, options, empty) => (
      <select name={FIELD_PATHS[name]} value={form[name]} onChange={set(name)}>
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    ),
  };
}
