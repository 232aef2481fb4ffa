import { type CatalogExchange, ReplaceVipTiersRequestSchema } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus, Trash2 } from 'lucide-react';
import { useMemo } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Field } from '../../../shared/ui/field';
import { replaceVipTiers } from '../api/replace-vip-tiers';
import { fieldError } from '../components/field-error';
import { type TiersInput, type TiersOutput, tiersOf } from './form-values';
import { saveThenRefresh } from './save-then-refresh';

const COLUMNS = [
  ['level', 'tierLevel'],
  ['volume30d', 'tierVolume'],
  ['assetAmount', 'tierAsset'],
  ['assetSymbol', 'tierSymbol'],
  ['limitPrice', 'limitPrice'],
  ['marketPrice', 'marketPrice'],
] as const;

/** The partner's VIP table: up to twenty tiers, replaced as a whole on save. */
export function VipTiersForm({ exchange, onSaved }: { exchange: CatalogExchange; onSaved(): Promise<void> }) {
  const { t } = useTranslation();
  const form = useForm<TiersInput, unknown, TiersOutput>({
    resolver: zodResolver(ReplaceVipTiersRequestSchema),
    mode: 'onTouched',
    values: useMemo(() => tiersOf(exchange), [exchange]),
  });
  const tiers = useFieldArray({ control: form.control, name: 'tiers' });
  const { errors, isSubmitting, isDirty } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  return (
    <form
      className="card admin-section admin-form"
      noValidate
      aria-labelledby="exchange-tiers-title"
      onSubmit={form.handleSubmit((values) => saveThenRefresh(() => replaceVipTiers(values), t, onSaved))}
    >
      <h2 id="exchange-tiers-title">{t('admin.catalog.vipTiers')}</h2>
      <p className="muted">{t('admin.catalog.vipTiersIntro')}</p>
      {tiers.fields.map((tier, index) => (
        <fieldset key={tier.id} className="admin-fieldset admin-tier">
          <legend>{t('admin.catalog.tierNumber', { number: index + 1 })}</legend>
          <div className="admin-tier-grid">
            {COLUMNS.map(([name, label]) => (
              <Field
                key={name}
                id={`tier-${index}-${name}`}
                label={t(`admin.catalog.${label}`)}
                error={error(errors.tiers?.[index]?.[name]?.message)}
              >
                <input {...form.register(`tiers.${index}.${name}`)} />
              </Field>
            ))}
          </div>
          <button
            type="button"
            className="button button-ghost admin-small-button"
            onClick={() => tiers.remove(index)}
          >
            <Trash2 size={16} aria-hidden="true" />
            {t('admin.catalog.removeTier', { number: index + 1 })}
          </button>
        </fieldset>
      ))}
      <div className="admin-actions">
        <button
          type="button"
          className="button button-ghost"
          disabled={tiers.fields.length >= 20}
          onClick={() =>
            tiers.append({
              level: `VIP ${tiers.fields.length + 1}`,
              volume30d: '',
              assetAmount: '',
              assetSymbol: '',
              limitPrice: exchange.limitPrice,
              marketPrice: exchange.marketPrice,
            })
          }
        >
          <Plus size={16} aria-hidden="true" />
          {t('admin.catalog.addTier')}
        </button>
        <button type="submit" className="button button-primary" disabled={isSubmitting || !isDirty}>
          {t('admin.catalog.saveTiers')}
        </button>
      </div>
    </form>
  );
}
