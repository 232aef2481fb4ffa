import { type CatalogExchange, ExchangeFieldsSchema, VIP_RULES } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../shared/ui/field';
import { updateExchange } from '../api/update-exchange';
import { SignupLinkPreview } from '../components/signup-link-preview';
import { type FieldsInput, type FieldsOutput, fieldsOf } from './form-values';
import { MarksFieldset } from './marks-fieldset';
import { saveThenRefresh } from './save-then-refresh';
import { textFieldRenderer } from './text-field-renderer';

/** Every field of the partner (rates, fees, flags, signup link, marks), saved or discarded at once. */
export function FieldsForm({ exchange, onSaved }: { exchange: CatalogExchange; onSaved(): Promise<void> }) {
  const { t } = useTranslation();
  const form = useForm<FieldsInput, unknown, FieldsOutput>({
    resolver: zodResolver(ExchangeFieldsSchema),
    mode: 'onTouched',
    values: useMemo(() => fieldsOf(exchange), [exchange]),
  });
  const [signupUrlTemplate, referralCode] = useWatch({
    control: form.control,
    name: ['signupUrlTemplate', 'referralCode'],
  });
  const { isSubmitting, isDirty } = form.formState;
  const text = textFieldRenderer(form, t);
  return (
    <form
      className="card admin-section admin-form"
      noValidate
      aria-labelledby="exchange-fields-title"
      onSubmit={form.handleSubmit((values) =>
        saveThenRefresh(
          () => updateExchange({ platId: exchange.platId, updatedAt: exchange.updatedAt, ...values }),
          t,
          onSaved,
        ),
      )}
    >
      <h2 id="exchange-fields-title">{t('admin.catalog.fields')}</h2>
      <div className="admin-form-grid">
        {text('name', t('admin.catalog.name'))}
        {text('abbreviation', t('admin.catalog.abbreviation'), { hint: t('admin.catalog.abbreviationHint') })}
        {text('logo', t('admin.catalog.logoPath'), { mono: true, hint: t('admin.catalog.logoPathHint') })}
        {text('position', t('admin.catalog.position'), { hint: t('admin.catalog.positionHint') })}
        {text('score', t('admin.catalog.score'), { hint: t('admin.catalog.scoreHint') })}
        {text('cashRate', t('admin.catalog.cashRate'), { hint: t('admin.catalog.cashRateHint') })}
        {text('speedUpCashRate', t('admin.catalog.speedUpCashRate'), {
          hint: t('admin.catalog.cashRateHint'),
        })}
        {text('limitPrice', t('admin.catalog.limitPrice'), { hint: t('admin.catalog.feeHint') })}
        {text('marketPrice', t('admin.catalog.marketPrice'), { hint: t('admin.catalog.feeHint') })}
        <Field id="exchange-vipRule" label={t('admin.catalog.vipRule')}>
          <select {...form.register('vipRule')}>
            {VIP_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {t(`admin.catalog.vipRules.${rule}`)}
              </option>
            ))}
          </select>
        </Field>
        {text('newUserDiscountPercent', t('admin.catalog.discountPercent'))}
        {text('newUserDiscountDays', t('admin.catalog.discountDays'))}
        {text('feesCheckedOn', t('admin.catalog.feesCheckedOn'), {
          type: 'date',
          hint: t('admin.catalog.feesCheckedOnHint'),
        })}
        <div className="admin-checks">
          <label className="checkbox-field">
            <input type="checkbox" {...form.register('isRecommended')} />
            <span>{t('admin.catalog.isRecommended')}</span>
          </label>
          <label className="checkbox-field">
            <input type="checkbox" {...form.register('isRacing')} />
            <span>{t('admin.catalog.isRacing')}</span>
          </label>
        </div>
      </div>
      <fieldset className="admin-fieldset">
        <legend>{t('admin.catalog.signupLink')}</legend>
        <div className="admin-signup-grid">
          {text('referralCode', t('admin.catalog.referralCode'), {
            mono: true,
            hint: t('admin.catalog.referralCodeHint'),
          })}
          {text('signupUrlTemplate', t('admin.catalog.signupUrlTemplate'), {
            mono: true,
            hint: t('admin.catalog.signupUrlTemplateHint'),
          })}
        </div>
        <SignupLinkPreview template={signupUrlTemplate ?? ''} referralCode={referralCode ?? ''} />
      </fieldset>
      <MarksFieldset form={form} />
      <div className="admin-actions">
        <button type="submit" className="button button-primary" disabled={isSubmitting || !isDirty}>
          {t('admin.catalog.saveFields')}
        </button>
        <button
          type="button"
          className="button button-ghost"
          disabled={!isDirty}
          onClick={() => form.reset()}
        >
          {t('admin.catalog.discard')}
        </button>
      </div>
    </form>
  );
}
