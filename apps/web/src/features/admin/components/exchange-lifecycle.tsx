import { type CatalogExchange, CreateExchangeRequestSchema, type ExchangeStatus } from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api/api-client';
import { Field } from '../../../shared/ui/field';
import { ResponsiveDialog } from '../../../shared/ui/responsive-dialog';
import { toast } from '../../../shared/ui/toast';
import { changeExchangeStatus, createExchange, type ExchangeTransition } from '../api/exchange-lifecycle';
import { fieldError } from './field-error';

/** A partner's status as a badge: listed, draft (console only) or retired. */
export function ExchangeStatusBadge({ status }: { status: ExchangeStatus }) {
  const { t } = useTranslation();
  const tone = { draft: 'pending', live: 'completed', retired: 'failed' }[status];
  return <span className={`status status-${tone}`}>{t(`admin.lifecycle.statuses.${status}`)}</span>;
}

/** "Add an exchange": name and abbreviation make a draft; the editor opens on it to complete it. */
export function AddExchangeButton({ onCreated }: { onCreated(): Promise<void> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const form = useForm<
    z.input<typeof CreateExchangeRequestSchema>,
    unknown,
    z.output<typeof CreateExchangeRequestSchema>
  >({
    resolver: zodResolver(CreateExchangeRequestSchema),
    mode: 'onTouched',
    defaultValues: { name: '', abbreviation: '' },
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <>
      <button type="button" className="button button-primary" onClick={() => setOpen(true)}>
        <Plus size={16} aria-hidden="true" />
        {t('admin.lifecycle.addExchange')}
      </button>
      <ResponsiveDialog
        open={open}
        onOpenChange={setOpen}
        title={t('admin.lifecycle.addTitle')}
        description={t('admin.lifecycle.addDescription')}
        maxWidthPx={520}
      >
        <form
          className="form admin-dialog-form"
          noValidate
          onSubmit={form.handleSubmit(async (values) => {
            try {
              const created = await createExchange(values);
              toast.success(t('msg:exchangeCreated', { name: created.name }));
              form.reset();
              setOpen(false);
              await onCreated();
              navigate(`/admin/catalog/${created.platId}`);
            } catch {
              // The API client showed the reason.
            }
          })}
        >
          <Field
            id="new-exchange-name"
            label={t('admin.catalog.name')}
            error={fieldError(t, errors.name?.message)}
          >
            <input autoComplete="off" {...form.register('name')} />
          </Field>
          <Field
            id="new-exchange-abbreviation"
            label={t('admin.catalog.abbreviation')}
            hint={t('admin.catalog.abbreviationHint')}
            error={fieldError(t, errors.abbreviation?.message)}
          >
            <input autoComplete="off" className="mono" {...form.register('abbreviation')} />
          </Field>
          <div className="dialog-actions">
            <button type="button" className="button button-ghost" onClick={() => setOpen(false)}>
              {t('admin.common.cancel')}
            </button>
            <button type="submit" className="button button-primary" disabled={isSubmitting}>
              {t('admin.lifecycle.addSubmit')}
            </button>
          </div>
        </form>
      </ResponsiveDialog>
    </>
  );
}

const NEXT: Record<ExchangeStatus, ExchangeTransition> = {
  draft: 'publish',
  live: 'retire',
  retired: 'reinstate',
};
const DONE = {
  publish: 'exchangePublished',
  retire: 'exchangeRetiredDone',
  reinstate: 'exchangeReinstated',
} as const;

/** The editor's status card: where the partner is, what that means, and the one move from there. */
export function ExchangeStatusSection({
  exchange,
  onSaved,
}: {
  exchange: CatalogExchange;
  onSaved(): Promise<void>;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const transition = NEXT[exchange.status];
  const copy = (key: string) => t(`admin.lifecycle.${transition}.${key}`, { name: exchange.name });
  const confirm = async () => {
    setBusy(true);
    try {
      await changeExchangeStatus(transition, { platId: exchange.platId, updatedAt: exchange.updatedAt });
      toast.success(t(`msg:${DONE[transition]}`));
      setConfirming(false);
      await onSaved();
    } catch (failure) {
      // The API client showed the reason. A refusal may be another operator's change since the page
      // loaded (exchangeStatusEditedMeanwhile): nothing moved; the confirmation closes and the page
      // reloads to show their version, so the move is confirmed again only on what it will make live.
      if (failure instanceof ApiError && failure.kind === 'refused') {
        setConfirming(false);
        await onSaved();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="card admin-section" aria-labelledby="exchange-status-title">
      <h2 id="exchange-status-title">
        {t('admin.lifecycle.status')} <ExchangeStatusBadge status={exchange.status} />
      </h2>
      <p className="muted">{t(`admin.lifecycle.statusIntro.${exchange.status}`)}</p>
      <div className="admin-actions">
        <button
          type="button"
          className={`button ${transition === 'retire' ? 'button-danger' : 'button-primary'}`}
          onClick={() => setConfirming(true)}
        >
          {copy('open')}
        </button>
      </div>
      <ResponsiveDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={copy('title')}
        description={copy('description')}
        maxWidthPx={520}
      >
        <div className="dialog-actions">
          <button type="button" className="button button-ghost" onClick={() => setConfirming(false)}>
            {t('admin.common.cancel')}
          </button>
          <button
            type="button"
            className={`button ${transition === 'retire' ? 'button-danger' : 'button-primary'}`}
            disabled={busy}
            onClick={() => void confirm()}
          >
            {copy('submit')}
          </button>
        </div>
      </ResponsiveDialog>
    </section>
  );
}
