import type { TFunction } from 'i18next';
import type { UseFormReturn } from 'react-hook-form';
import { Field } from '../../../shared/ui/field';
import { fieldError } from '../components/field-error';
import type { FieldsInput, FieldsOutput } from './form-values';

/** For the fields form: `text(name, label, options)` renders one labelled input with its hint and error. */
export function textFieldRenderer(form: UseFormReturn<FieldsInput, unknown, FieldsOutput>, t: TFunction) {
  const { errors } = form.formState;
  return (
    name: keyof FieldsInput,
    label: string,
    options: { hint?: string; mono?: boolean; type?: string } = {},
  ) => (
    <Field
      id={`exchange-${name}`}
      label={label}
      hint={options.hint}
      error={fieldError(t, errors[name]?.message as string | undefined)}
    >
      <input
        type={options.type ?? 'text'}
        className={options.mono ? 'mono' : undefined}
        inputMode={options.type === 'number' ? 'decimal' : undefined}
        {...form.register(name)}
      />
    </Field>
  );
}
