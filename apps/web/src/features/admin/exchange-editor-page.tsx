import {
  type CatalogExchange,
  ExchangeFieldsSchema,
  LOGO_UPLOAD,
  ReplaceVipTiersRequestSchema,
  VIP_RULES,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Plus, Trash2, Upload } from 'lucide-react';
import { type ChangeEvent, useId, useMemo, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { exchangeListQuery, refreshExchangeDictionary } from '../../shared/exchanges/exchange-dictionary';
import { EXCHANGE_DETAIL_KEY } from '../../shared/queries/get-exchange-detail';
import { exchangeIndexQuery } from '../../shared/queries/get-exchange-index';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { catalogQuery, useCatalog } from './api/get-catalog';
import { replaceVipTiers } from './api/replace-vip-tiers';
import { updateExchange } from './api/update-exchange';
import { uploadLogo } from './api/upload-logo';
import { ActivitiesEditor } from './components/activities-editor';
import { ExchangeStatusSection } from './components/exchange-lifecycle';
import { fieldError } from './components/field-error';
import { LoadError } from './components/load-error';
import { SignupLinkPreview } from './components/signup-link-preview';
import { formatBytes, formatTime } from './format';

type FieldsInput = z.input<typeof ExchangeFieldsSchema>;
type FieldsOutput = z.output<typeof ExchangeFieldsSchema>;
type TiersInput = z.input<typeof ReplaceVipTiersRequestSchema>;
type TiersOutput = z.output<typeof ReplaceVipTiersRequestSchema>;

function fieldsOf(exchange: CatalogExchange): FieldsInput {
  return {
    name: exchange.name,
    abbreviation: exchange.abbreviation,
    logo: exchange.logo,
    position: exchange.position,
    score: exchange.score,
    cashRate: exchange.cashRate,
    speedUpCashRate: exchange.speedUpCashRate,
    limitPrice: exchange.limitPrice,
    marketPrice: exchange.marketPrice,
    vipRule: exchange.vipRule,
    marks: exchange.marks,
    signupUrlTemplate: exchange.signupUrlTemplate,
    referralCode: exchange.referralCode,
    newUserDiscountPercent: exchange.newUserDiscountPercent,
    newUserDiscountDays: exchange.newUserDiscountDays,
    isRecommended: exchange.isRecommended,
    isRacing: exchange.isRacing,
    feesCheckedOn: exchange.feesCheckedOn ?? '',
  };
}

function LogoSection({ exchange, onSaved }: { exchange: CatalogExchange; onSaved(): Promise<void> }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setProblem(null);
    // The server checks again, by content; this only spares a pointless upload.
    if (file.size > LOGO_UPLOAD.maxBytes) {
      setProblem(t('msg:logoTooLarge'));
      return;
    }
    setBusy(true);
    try {
      await uploadLogo(exchange.platId, file);
      toast.success(t('admin.catalog.logoSaved', { name: file.name, size: formatBytes(file.size) }));
      await onSaved();
    } catch {
      // The API client showed the reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card admin-section" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`}>{t('admin.catalog.logo')}</h2>
      <div className="admin-logo-row">
        <img
          className="admin-logo-preview"
          src={exchange.logo}
          alt={t('admin.catalog.currentLogo')}
          width={64}
          height={64}
        />
        <div>
          <label htmlFor={inputId} className={`button button-ghost${busy ? ' disabled' : ''}`}>
            <Upload size={16} aria-hidden="true" />
            {busy ? t('admin.catalog.uploading') : t('admin.catalog.uploadLogo')}
          </label>
          <input
            id={inputId}
            className="visually-hidden"
            type="file"
            accept={LOGO_UPLOAD.accept}
            disabled={busy}
            onChange={choose}
          />
          <p className="field-hint">{t('admin.catalog.logoRules')}</p>
          {problem ? (
            <p className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}

function FieldsForm({ exchange, onSaved }: { exchange: CatalogExchange; onSaved(): Promise<void> }) {
  const { t } = useTranslation();
  const form = useForm<FieldsInput, unknown, FieldsOutput>({
    resolver: zodResolver(ExchangeFieldsSchema),
    mode: 'onTouched',
    values: useMemo(() => fieldsOf(exchange), [exchange]),
  });
  const marks = useFieldArray({ control: form.control, name: 'marks' });
  const [signupUrlTemplate, referralCode] = useWatch({
    control: form.control,
    name: ['signupUrlTemplate', 'referralCode'],
  });
  const { errors, isSubmitting, isDirty } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  const text = (
    name: keyof FieldsInput,
    label: string,
    options: { hint?: string; mono?: boolean; type?: string } = {},
  ) => (
    <Field
      id={`exchange-${name}`}
      label={label}
      hint={options.hint}
      error={error(errors[name]?.message as string | undefined)}
    >
      <input
        type={options.type ?? 'text'}
        className={options.mono ? 'mono' : undefined}
        inputMode={options.type === 'number' ? 'decimal' : undefined}
        {...form.register(name)}
      />
    </Field>
  );
  return (
    <form
      className="card admin-section admin-form"
      noValidate
      aria-labelledby="exchange-fields-title"
      onSubmit={form.handleSubmit(async (values) => {
        try {
          await updateExchange({ platId: exchange.platId, ...values });
          toast.success(t('msg:savedSuccessfully'));
          await onSaved();
        } catch {
          // The API client showed the reason.
        }
      })}
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

function VipTiersForm({ exchange, onSaved }: { exchange: CatalogExchange; onSaved(): Promise<void> }) {
  const { t } = useTranslation();
  const form = useForm<TiersInput, unknown, TiersOutput>({
    resolver: zodResolver(ReplaceVipTiersRequestSchema),
    mode: 'onTouched',
    values: useMemo(
      () => ({
        platId: exchange.platId,
        tiers: exchange.vipTiers.map((tier) => ({
          ...tier,
          volume30d: tier.volume30d ?? '',
          assetAmount: tier.assetAmount ?? '',
          assetSymbol: tier.assetSymbol ?? '',
        })),
      }),
      [exchange],
    ),
  });
  const tiers = useFieldArray({ control: form.control, name: 'tiers' });
  const { errors, isSubmitting, isDirty } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  const columns = [
    ['level', 'tierLevel'],
    ['volume30d', 'tierVolume'],
    ['assetAmount', 'tierAsset'],
    ['assetSymbol', 'tierSymbol'],
    ['limitPrice', 'limitPrice'],
    ['marketPrice', 'marketPrice'],
  ] as const;
  return (
    <form
      className="card admin-section admin-form"
      noValidate
      aria-labelledby="exchange-tiers-title"
      onSubmit={form.handleSubmit(async (values) => {
        try {
          await replaceVipTiers(values);
          toast.success(t('msg:savedSuccessfully'));
          await onSaved();
        } catch {
          // The API client showed the reason.
        }
      })}
    >
      <h2 id="exchange-tiers-title">{t('admin.catalog.vipTiers')}</h2>
      <p className="muted">{t('admin.catalog.vipTiersIntro')}</p>
      {tiers.fields.map((tier, index) => (
        <fieldset key={tier.id} className="admin-fieldset admin-tier">
          <legend>{t('admin.catalog.tierNumber', { number: index + 1 })}</legend>
          <div className="admin-tier-grid">
            {columns.map(([name, label]) => (
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

/** /admin/catalog/:platId: every field of one partner, its logo, VIP table and activities. */
export default function ExchangeEditorPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const platId = Number(useParams().platId);
  const catalog = useCatalog();
  const exchange = catalog.data?.exchanges.find((entry) => entry.platId === platId);
  // After any save: the editor reloads the catalog, and the public pages drop what they hold, so the
  // exchange dictionary (pickers, /exchange, the calculator), the home index and the detail pages show
  // the edit without a reload. The server dropped its own catalog cache with the write.
  const refresh = async () => {
    // A failed reload is logged by the list getters; the list query below then answers an empty list.
    void refreshExchangeDictionary().catch(() => undefined);
    await Promise.all([
      client.invalidateQueries({ queryKey: catalogQuery.queryKey }),
      client.invalidateQueries({ queryKey: exchangeListQuery.queryKey }),
      client.invalidateQueries({ queryKey: exchangeIndexQuery.queryKey }),
      client.invalidateQueries({ queryKey: EXCHANGE_DETAIL_KEY }),
    ]);
  };

  return (
    <Page title={exchange ? exchange.name : t('admin.catalog.exchange')} wide>
      <p>
        <Link to="/admin/catalog" className="admin-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {t('admin.catalog.back')}
        </Link>
      </p>
      {catalog.isError && !catalog.data ? <LoadError onRetry={() => void catalog.refetch()} /> : null}
      {!catalog.data ? (
        catalog.isError ? null : (
          <Skeleton lines={8} />
        )
      ) : !exchange ? (
        <p className="card muted">{t('msg:exchangeNotFound')}</p>
      ) : (
        <>
          <p className="muted">
            {t('admin.catalog.platIdLine', { platId: exchange.platId, time: formatTime(exchange.updatedAt) })}
          </p>
          <ExchangeStatusSection exchange={exchange} onSaved={refresh} />
          <LogoSection exchange={exchange} onSaved={refresh} />
          <FieldsForm exchange={exchange} onSaved={refresh} />
          <VipTiersForm exchange={exchange} onSaved={refresh} />
          <ActivitiesEditor exchange={exchange} onSaved={refresh} />
        </>
      )}
    </Page>
  );
}
