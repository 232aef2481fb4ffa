import { Plus, Trash2 } from 'lucide-react';
import { type UseFormReturn, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../shared/ui/field';
import { fieldError } from '../components/field-error';
import type { FieldsInput, FieldsOutput } from './form-values';

/** The partner's marks (tag and icon) in the fields form: up to eight, added and removed in place. */
export function MarksFieldset({ form }: { form: UseFormReturn<FieldsInput, unknown, FieldsOutput> }) {
  const { t } = useTranslation();
  const marks = useFieldArray({ control: form.control, name: 'marks' });
  const { errors } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  return (
    <fieldset className="admin-fieldset">
      <legend>{t('admin.catalog.marks')}</legend>
      {marks.fields.length === 0 ? <p className="muted">{t('admin.catalog.noMarks')}</p> : null}
      {marks.fields.map((mark, index) => (
        <div key={mark.id} className="admin-row">
          <Field
            id={`mark-${index}-tag`}
            label={t('admin.catalog.markTag')}
            error={error(errors.marks?.[index]?.tag?.message)}
          >
            <input {...form.register(`marks.${index}.tag`)} />
          </Field>
          <Field
            id={`mark-${index}-icon`}
            label={t('admin.catalog.markIcon')}
            error={error(errors.marks?.[index]?.iconUrl?.message)}
          >
            <input className="mono" {...form.register(`marks.${index}.iconUrl`)} />
          </Field>
          <button
            type="button"
            className="icon-button admin-row-remove"
            aria-label={t('admin.catalog.removeMark', { number: index + 1 })}
            onClick={() => marks.remove(index)}
          >
            <Trash2 size={18} aria-hidden="true" />
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button button-ghost"
        onClick={() => marks.append({ tag: '', iconUrl: '/logos/tags/' })}
        disabled={marks.fields.length >= 8}
      >
        <Plus size={16} aria-hidden="true" />
        {t('admin.catalog.addMark')}
      </button>
    </fieldset>
  );
}
