import { SUPPORT } from '@elex/contract';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatInteger } from '../../../shared/exchanges/format';
import { Field } from '../../../shared/ui/field';

/** The message's text area with how many characters it has of the most it may have. */
export function SupportTextField({
  id,
  label,
  length,
  error,
  registration,
  rows = 6,
}: {
  id: string;
  label: string;
  length: number;
  error: string | undefined;
  registration: UseFormRegisterReturn;
  rows?: number;
}) {
  const { t } = useTranslation();
  const over = length > SUPPORT.maxTextLength;
  return (
    <Field
      id={id}
      label={label}
      error={error}
      hint={
        <span className={over ? 'danger' : 'muted'}>
          {t('support.textCount', {
            length: formatInteger(String(length)),
            max: formatInteger(String(SUPPORT.maxTextLength)),
          })}
        </span>
      }
    >
      <textarea className="input support-textarea" rows={rows} {...registration} />
    </Field>
  );
}
