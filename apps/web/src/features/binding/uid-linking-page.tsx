import {
  BindExchangeUidRequestSchema,
  type BindingRefusal,
  BindingRefusalSchema,
  CASHBACK,
  type ExchangeDictionaryEntry,
  PATHS,
  State,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { CircleCheck, CircleX, Clock } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { ApiError } from '../../shared/api/api-client';
import { isExchangeListUnavailable } from '../../shared/exchanges/exchange-dictionary';
import { ExchangeListLoadError } from '../../shared/exchanges/exchange-list-load-error';
import { useOpenExchangeList } from '../../shared/exchanges/exchange-list-query';
import { uidSearchHref } from '../../shared/exchanges/paths';
import { SignupDialog } from '../../shared/exchanges/signup-dialog';
import { newSupportRequestHref } from '../../shared/navigation/support-paths';
import { myInfoQuery } from '../../shared/queries/get-my-info';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { ResponsiveDialog } from '../../shared/ui/responsive-dialog';
import { Skeleton } from '../../shared/ui/skeleton';
import { bindExchangeUid } from './api/bind-exchange-uid';
import { verifyExchangeUid } from './api/verify-exchange-uid';
import { UidNotEligible } from './components/uid-not-eligible';
import './binding.css';

type BindForm = z.input<typeof BindExchangeUidRequestSchema>;
type BindValues = z.output<typeof BindExchangeUidRequestSchema>;
type Outcome =
  | { kind: 'success'; uid: string }
  /** About the UID tried, so "Contact support" opens the form with it filled in. */
  | { kind: 'failure'; message: string; platId: number; uid: string }
  /** 'This account is already bound!' to someone else: the member may say it is theirs (a dispute). */
  | { kind: 'boundToOther'; uid: string; platId: number }
  /** A failure too ('Binding failed'), with the spec's message and how to fix it. */
  | { kind: 'notReferred'; uid: string; platId: number }
  /** The roster (fed by CSV or sync) does not list the UID yet: the server mails the member when it does. */
  | { kind: 'notYetListed'; uid: string; platId: number }
  | null;

/** The full-width button that ends a result dialog. */
function CloseOutcome({
  style,
  label,
  onClose,
}: {
  style: 'primary' | 'ghost';
  label: string;
  onClose(): void;
}) {
  return (
    <button type="button" className={`button button-${style} button-block`} onClick={onClose}>
      {label}
    </button>
  );
}

/** The message key of a bindExchangeUid refusal (state 1002), if the answer names one. */
function refusalKey(error: ApiError): BindingRefusal['messageKey'] | undefined {
  if (error.kind !== 'refused' || error.state !== State.Refused) return undefined;
  return BindingRefusalSchema.safeParse(error.content).data?.messageKey;
}

/** Bind an exchange UID: exchange, UID, Polygon receiving address; success and failure dialogs. */
export default function UidLinkingPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const client = useQueryClient();
  const exchanges = useOpenExchangeList();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [signup, setSignup] = useState<ExchangeDictionaryEntry | null>(null);
  const form = useForm<BindForm, unknown, BindValues>({
    resolver: zodResolver(BindExchangeUidRequestSchema),
    mode: 'onTouched',
    defaultValues: { platId: params.get('platId') ?? '', uid: params.get('uid') ?? '', address: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const chosen = exchanges.data?.find((entry) => String(entry.id) === String(form.watch('platId')));
  const message = (key: string | undefined) => (key ? t(`msg:${key}`) : undefined);

  const onSubmit = async (values: BindValues) => {
    let eligibility: Awaited<ReturnType<typeof verifyExchangeUid>> | undefined;
    const about = { platId: values.platId, uid: values.uid };
    try {
      // Ask first, so a UID that was not referred gets the explanation page, not just a refusal.
      eligibility = await verifyExchangeUid(values.uid, values.platId);
      if (eligibility === 'notReferred')
        return setOutcome({ kind: 'notReferred', uid: values.uid, platId: values.platId });
      if (eligibility === 'unknownExchange')
        return setOutcome({ kind: 'failure', message: t('msg:exchangeNotFound'), ...about });
      if (eligibility === 'boundToOther')
        return setOutcome({ kind: 'boundToOther', uid: values.uid, platId: values.platId });
      // A UID not listed yet goes on to the bind call too: its refusal records the wait, so the
      // member is mailed when the UID appears.
      await bindExchangeUid(values);
      await client.invalidateQueries({ queryKey: myInfoQuery.queryKey });
      setOutcome({ kind: 'success', uid: values.uid });
      form.reset({ platId: values.platId, uid: '', address: '' });
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'session') return;
      // The server refuses the same way when the check above could not answer; the refusal names its
      // message key (not only a translated text), which tells 'not referred' from the other refusals.
      if (error instanceof ApiError && refusalKey(error) === 'uidNotReferred')
        return setOutcome({ kind: 'notReferred', uid: values.uid, platId: values.platId });
      if (error instanceof ApiError && refusalKey(error) === 'uidNotYetListed')
        return setOutcome({ kind: 'notYetListed', uid: values.uid, platId: values.platId });
      // Bound meanwhile, or the check could not answer: the holder is someone else unless it was this
      // member, whom the check would have answered 'boundToYou'.
      if (
        error instanceof ApiError &&
        refusalKey(error) === 'uidAlreadyBound' &&
        eligibility !== 'boundToYou'
      )
        return setOutcome({ kind: 'boundToOther', uid: values.uid, platId: values.platId });
      setOutcome({
        kind: 'failure',
        message: error instanceof ApiError ? error.message : t('msg:bindingFailed'),
        ...about,
      });
    }
  };

  return (
    <Page title={t('pages.uidLinking.title')} intro={t('pages.uidLinking.intro')} narrow>
      {exchanges.isPending ? (
        <Skeleton lines={4} />
      ) : isExchangeListUnavailable(exchanges) ? (
        <ExchangeListLoadError list={exchanges} />
      ) : (
        <form className="card form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
          <Field id="bind-exchange" label={t('binding.exchange')} error={message(errors.platId?.message)}>
            <select {...form.register('platId')}>
              <option value="">{t('binding.chooseExchange')}</option>
              {exchanges.data?.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </Field>
          <Field
            id="bind-uid"
            label={t('binding.uid')}
            error={message(errors.uid?.message)}
            hint={<span className="muted">{t('binding.uidHint')}</span>}
          >
            <input
              type="text"
              inputMode="text"
              autoComplete="off"
              spellCheck={false}
              {...form.register('uid')}
            />
          </Field>
          <Field
            id="bind-address"
            label={t('binding.address')}
            error={message(errors.address?.message)}
            hint={<span className="muted">{t('binding.addressHint')}</span>}
          >
            <input
              type="text"
              autoComplete="off"
              spellCheck={false}
              className="mono"
              {...form.register('address')}
            />
          </Field>
          <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
            {isSubmitting ? t('common.loading') : t('binding.submit')}
          </button>
          {chosen ? (
            <p className="form-footer">
              {t('binding.noAccountYet', { exchange: chosen.name })}{' '}
              <button type="button" className="link-button" onClick={() => setSignup(chosen)}>
                {t('binding.signUpWithLink', { exchange: chosen.name })}
              </button>
            </p>
          ) : null}
        </form>
      )}
      <ResponsiveDialog
        open={outcome !== null}
        onOpenChange={(open) => (open ? undefined : setOutcome(null))}
        title={
          outcome?.kind === 'success'
            ? t('msg:bindingSuccessful')
            : outcome?.kind === 'notYetListed'
              ? t('binding.notYetListed.title')
              : t('msg:bindingFailed')
        }
      >
        {outcome?.kind === 'success' ? (
          <div className="result-dialog">
            <CircleCheck size={40} aria-hidden="true" className="success" />
            <p>{t('binding.successBody', { uid: outcome.uid, segmentHours: CASHBACK.dataSegmentHours })}</p>
            <div className="dialog-actions">
              <button type="button" className="button button-ghost" onClick={() => setOutcome(null)}>
                {t('binding.bindAnother')}
              </button>
              <Link to={PATHS.home} className="button button-primary">
                {t('binding.seeBalance')}
              </Link>
            </div>
          </div>
        ) : outcome?.kind === 'notReferred' ? (
          <div className="not-referred">
            <div className="result-dialog">
              <CircleX size={40} aria-hidden="true" className="danger" />
              <p role="alert">{t('msg:uidNotReferred')}</p>
            </div>
            <UidNotEligible
              uid={outcome.uid}
              exchangeName={chosen?.name ?? ''}
              onSignUp={
                chosen
                  ? () => {
                      setOutcome(null);
                      setSignup(chosen);
                    }
                  : undefined
              }
            />
            <CloseOutcome style="ghost" label={t('binding.tryAnother')} onClose={() => setOutcome(null)} />
            <p className="form-footer">
              {t('binding.support.stillStuck')}{' '}
              <Link to={newSupportRequestHref({ platId: outcome.platId, uid: outcome.uid })}>
                {t('binding.support.contact')}
              </Link>
            </p>
          </div>
        ) : outcome?.kind === 'notYetListed' ? (
          <div className="result-dialog">
            <Clock size={40} aria-hidden="true" className="muted" />
            <p role="status">{t('msg:uidNotYetListed', { hours: CASHBACK.rosterDelayHours })}</p>
            <p>
              {t('binding.notYetListed.older', { hours: CASHBACK.rosterDelayHours })}{' '}
              <Link to={uidSearchHref(outcome.uid, outcome.platId)}>
                {t('binding.notYetListed.howToFix')}
              </Link>
            </p>
            <CloseOutcome style="primary" label={t('common.close')} onClose={() => setOutcome(null)} />
          </div>
        ) : outcome?.kind === 'boundToOther' ? (
          <div className="result-dialog">
            <CircleX size={40} aria-hidden="true" className="danger" />
            <p role="alert">{t('msg:uidAlreadyBound')}</p>
            <p>{t('binding.support.disputeHint')}</p>
            <Link
              to={newSupportRequestHref({
                kind: 'uidBoundByOther',
                platId: outcome.platId,
                uid: outcome.uid,
              })}
              className="button button-primary button-block"
            >
              {t('binding.support.dispute')}
            </Link>
            <CloseOutcome style="ghost" label={t('common.close')} onClose={() => setOutcome(null)} />
          </div>
        ) : outcome?.kind === 'failure' ? (
          <div className="result-dialog">
            <CircleX size={40} aria-hidden="true" className="danger" />
            <p role="alert">{outcome.message}</p>
            <CloseOutcome style="primary" label={t('common.close')} onClose={() => setOutcome(null)} />
            <Link
              to={newSupportRequestHref({ platId: outcome.platId, uid: outcome.uid })}
              className="button button-ghost button-block"
            >
              {t('binding.support.contact')}
            </Link>
          </div>
        ) : null}
      </ResponsiveDialog>
      <SignupDialog exchange={signup} onClose={() => setSignup(null)} />
    </Page>
  );
}
