import {
  CreatePromotionCodeRequestSchema,
  EXCLUSIVE_SIGNUP,
  type PromotionCode,
  type PromotionStatus,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../shared/api/api-client';
import { useIsWide } from '../../shared/hooks/use-is-wide';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { Pager } from '../../shared/ui/pager';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import {
  createPromotionCode,
  PROMOTIONS_KEY,
  updatePromotionCode,
  usePromotionCodes,
} from './api/promotion-codes';
import { fieldError } from './components/field-error';
import { LoadError } from './components/load-error';
import { PromotionEditDialog } from './components/promotion-edit-dialog';
import { ScrollRegion } from './components/scroll-region';
import { formatDay } from './format';

const PAGE_SIZE = 50;

/** The pill colour of each status: active green, used up amber, expired grey, disabled red. */
const STATUS_CLASS: Record<PromotionStatus, string> = {
  active: 'status-completed',
  usedUp: 'status-pending',
  expired: 'status-cancelled',
  disabled: 'status-failed',
};

/** Today as a UTC day: the earliest last valid day a code may be given. */
const todayUtc = () => new Date().toISOString().slice(0, 10);

function CreateForm({ onCreated }: { onCreated(): void }) {
  const { t } = useTranslation();
  const form = useForm<
    z.input<typeof CreatePromotionCodeRequestSchema>,
    unknown,
    z.output<typeof CreatePromotionCodeRequestSchema>
  >({
    resolver: zodResolver(CreatePromotionCodeRequestSchema),
    mode: 'onTouched',
    defaultValues: { code: '', note: '', validThrough: '', maxUses: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const error = (message: string | undefined) => fieldError(t, message);
  return (
    <section className="card admin-section">
      <h2>{t('admin.promotions.createTitle')}</h2>
      <form
        className="form admin-form"
        aria-label={t('admin.promotions.createTitle')}
        noValidate
        onSubmit={form.handleSubmit(async (values) => {
          try {
            const created = await createPromotionCode(values);
            toast.success(t('msg:promotionCodeCreated', { code: created.code }));
            form.reset();
            onCreated();
          } catch {
            // The API client showed the reason (a code already taken ...).
          }
        })}
      >
        <div className="admin-form-grid">
          <Field
            id="promotion-code"
            label={t('admin.promotions.code')}
            hint={t('admin.promotions.codeHint')}
            error={error(errors.code?.message)}
          >
            <input className="mono" autoComplete="off" spellCheck={false} {...form.register('code')} />
          </Field>
          <Field
            id="promotion-note"
            label={t('admin.promotions.note')}
            hint={t('admin.promotions.noteHint')}
            error={error(errors.note?.message)}
          >
            <input autoComplete="off" {...form.register('note')} />
          </Field>
          <Field
            id="promotion-valid-through"
            label={t('admin.promotions.validThrough')}
            hint={t('admin.promotions.validThroughHint')}
            error={error(errors.validThrough?.message)}
          >
            <input type="date" min={todayUtc()} {...form.register('validThrough')} />
          </Field>
          <Field
            id="promotion-max-uses"
            label={t('admin.promotions.maxUses')}
            hint={t('admin.promotions.maxUsesHint')}
            error={error(errors.maxUses?.message)}
          >
            <input inputMode="numeric" autoComplete="off" {...form.register('maxUses')} />
          </Field>
        </div>
        <div className="admin-actions">
          <button type="submit" className="button button-primary" disabled={isSubmitting}>
            {t('admin.promotions.create')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** Edit, and disable or enable: each button names its code, as several rows carry the same ones. */
function RowActions({ code, onEdit }: { code: PromotionCode; onEdit(code: PromotionCode): void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const isDisabled = code.disabledAt !== null;
  const toggle = async () => {
    setBusy(true);
    try {
      // On the version this row shows: a code another operator changed since (disabled for fraud, a
      // note saying why) is not switched back unseen.
      await updatePromotionCode({ id: code.id, updatedAt: code.updatedAt, disabled: !isDisabled });
      toast.success(
        t(isDisabled ? 'admin.promotions.enabled' : 'admin.promotions.disabled', { code: code.code }),
      );
      await client.invalidateQueries({ queryKey: PROMOTIONS_KEY });
    } catch (failure) {
      // The API client showed the reason. A refusal (promotionCodeEditedMeanwhile) reloads the list, so
      // the row shows the other operator's version before anyone switches it again.
      if (failure instanceof ApiError && failure.kind === 'refused') {
        await client.invalidateQueries({ queryKey: PROMOTIONS_KEY });
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="admin-row-actions">
      <button
        type="button"
        className="button button-ghost admin-small-button"
        aria-label={t('admin.promotions.editCode', { code: code.code })}
        onClick={() => onEdit(code)}
      >
        {t('admin.promotions.edit')}
      </button>
      <button
        type="button"
        className={`button admin-small-button ${isDisabled ? 'button-ghost' : 'button-danger'}`}
        aria-label={t(isDisabled ? 'admin.promotions.enableCode' : 'admin.promotions.disableCode', {
          code: code.code,
        })}
        disabled={busy}
        onClick={() => void toggle()}
      >
        {t(isDisabled ? 'admin.promotions.enable' : 'admin.promotions.disable')}
      </button>
    </div>
  );
}

function StatusPill({ status }: { status: PromotionStatus }) {
  const { t } = useTranslation();
  return <span className={`status ${STATUS_CLASS[status]}`}>{t(`admin.promotions.statuses.${status}`)}</span>;
}

/** /admin/promotions: the exclusive sign-up codes (encr): create, list with sign-ups, edit, disable. */
export default function PromotionsPage() {
  const { t } = useTranslation();
  const isWide = useIsWide();
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<PromotionCode | null>(null);
  const codes = usePromotionCodes(page, PAGE_SIZE);
  const refresh = () => void client.invalidateQueries({ queryKey: PROMOTIONS_KEY });
  const validThrough = (code: PromotionCode) =>
    code.validThrough ? formatDay(code.validThrough) : t('admin.promotions.noEnd');
  const cap = (code: PromotionCode) => (code.maxUses === null ? t('admin.promotions.noCap') : code.maxUses);

  return (
    <Page
      title={t('admin.promotions.title')}
      intro={t('admin.promotions.intro', {
        xme: EXCLUSIVE_SIGNUP.xmeEnergy,
        points: EXCLUSIVE_SIGNUP.points,
      })}
      wide
    >
      <CreateForm
        onCreated={() => {
          setPage(1);
          refresh();
        }}
      />
      <section className="card admin-section">
        <h2>{t('admin.promotions.listTitle')}</h2>
        {codes.isError && !codes.data ? <LoadError onRetry={() => void codes.refetch()} /> : null}
        {!codes.data ? (
          codes.isError ? null : (
            <Skeleton lines={4} />
          )
        ) : codes.data.rows.length === 0 ? (
          <p className="muted">{t('admin.promotions.empty')}</p>
        ) : isWide ? (
          <ScrollRegion label={t('admin.promotions.listTitle')}>
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.promotions.code')}</th>
                  <th scope="col">{t('admin.promotions.created')}</th>
                  <th scope="col">{t('admin.promotions.validThrough')}</th>
                  <th scope="col" className="numeric">
                    {t('admin.promotions.maxUses')}
                  </th>
                  <th scope="col" className="numeric">
                    {t('admin.promotions.signups')}
                  </th>
                  <th scope="col">{t('admin.promotions.status')}</th>
                </tr>
              </thead>
              <tbody>
                {codes.data.rows.map((code) => (
                  <tr key={code.id}>
                    <th scope="row" className="promotion-code">
                      <span className="mono">{code.code}</span>
                      {code.note ? <span className="status-reason">{code.note}</span> : null}
                    </th>
                    <td>
                      {formatDay(code.createdAt)}
                      <span className="status-reason">{code.createdBy}</span>
                    </td>
                    <td>{validThrough(code)}</td>
                    <td className="numeric">{cap(code)}</td>
                    <td className="numeric">{code.signups}</td>
                    {/* The buttons under the status they change, so the table fits beside the menu. */}
                    <td className="promotion-status">
                      <StatusPill status={code.status} />
                      <RowActions code={code} onEdit={setEditing} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        ) : (
          <ul className="entry-list promotion-list">
            {codes.data.rows.map((code) => (
              <li key={code.id}>
                <div>
                  <p className="entry-title mono">{code.code}</p>
                  {code.note ? <p className="entry-detail">{code.note}</p> : null}
                  <p className="entry-detail">
                    {t('admin.promotions.summary', {
                      validThrough: validThrough(code),
                      cap: cap(code),
                      signups: code.signups,
                    })}
                  </p>
                  <p className="entry-detail">
                    {t('admin.promotions.createdBy', {
                      day: formatDay(code.createdAt),
                      operator: code.createdBy,
                    })}
                  </p>
                  <RowActions code={code} onEdit={setEditing} />
                </div>
                <StatusPill status={code.status} />
              </li>
            ))}
          </ul>
        )}
        {codes.data ? (
          <Pager
            page={page}
            pageSize={PAGE_SIZE}
            total={codes.data.total}
            onPage={setPage}
            label={t('admin.promotions.listTitle')}
          />
        ) : null}
      </section>
      <PromotionEditDialog
        code={editing}
        minDay={todayUtc()}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          refresh();
        }}
        onRefused={refresh}
      />
    </Page>
  );
}
