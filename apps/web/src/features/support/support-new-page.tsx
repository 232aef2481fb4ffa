import {
  CreateSupportRequestSchema,
  isMessageKey,
  OWNERSHIP,
  PATHS,
  SUPPORT_KINDS,
  type SupportKind,
  UID_SUPPORT_KINDS,
} from '@elex/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { isExchangeListUnavailable } from '../../shared/exchanges/exchange-dictionary';
import { ExchangeListLoadError } from '../../shared/exchanges/exchange-list-load-error';
import { useExchangeList } from '../../shared/exchanges/exchange-list-query';
import { supportRequestHref } from '../../shared/navigation/support-paths';
import { Field } from '../../shared/ui/field';
import { Page } from '../../shared/ui/page';
import { Skeleton } from '../../shared/ui/skeleton';
import { toast } from '../../shared/ui/toast';
import { createSupportRequest } from './api/create-support-request';
import { ImageField } from './components/image-field';
import type { PickedImage } from './components/support-image';
import { wireImage } from './components/support-image';
import { SupportTextField } from './components/text-field';
import './support.css';

interface RequestForm {
  kind: SupportKind | '';
  platId: string;
  uid: string;
  address: string;
  text: string;
}
type RequestValues = z.output<typeof CreateSupportRequestSchema>;

const isKind = (value: string | null): value is SupportKind =>
  value !== null && (SUPPORT_KINDS as readonly string[]).includes(value);
const isUidKind = (kind: RequestForm['kind']) => kind !== '' && UID_SUPPORT_KINDS.includes(kind);
const blankToUndefined = (value: string) => (value.trim() === '' ? undefined : value);

/**
 * The contract's schema on what the member sees: the exchange, UID and address fields count only
 * while the kind shows them (a UID typed, then the kind changed, is not sent).
 */
const checkWithContract = zodResolver(CreateSupportRequestSchema);
const resolver: Resolver<RequestForm, unknown, RequestValues> = (values, context, options) =>
  checkWithContract(
    {
      // '' (no topic chosen) reaches the schema, which refuses it as required information.
      kind: values.kind as SupportKind,
      platId: isUidKind(values.kind) ? blankToUndefined(values.platId) : undefined,
      uid: isUidKind(values.kind) ? blankToUndefined(values.uid) : undefined,
      address: values.kind === 'uidBoundByOther' ? blankToUndefined(values.address) : undefined,
      text: values.text,
    },
    context,
    // The resolver names fields by the form's paths, which are the schema's.
    options as unknown as Parameters<typeof checkWithContract>[2],
  ) as ReturnType<Resolver<RequestForm, unknown, RequestValues>>;

/**
 * /mypage/support/new?kind=&platId=&uid= (issue 11): a support request or a UID dispute, with one
 * optional screenshot. The refusal dialogs, UID page and withdrawal page link here with the kind and
 * the UID filled in.
 */
export default function SupportNewPage() {
  const { t } = useTranslation();
  const exchanges = useExchangeList();
  return (
    <Page title={t('pages.supportNew.title')} intro={t('pages.supportNew.intro')}>
      <p>
        <Link to={PATHS.myPageSupport} className="support-back">
          <ArrowLeft size={16} aria-hidden="true" />
          {t('support.backToList')}
        </Link>
      </p>
      {exchanges.isPending ? (
        // The exchange filled in from the address needs its option before the form reads it.
        <Skeleton lines={5} />
      ) : (
        <NewRequestForm exchanges={exchanges} />
      )}
    </Page>
  );
}

function NewRequestForm({ exchanges }: { exchanges: ReturnType<typeof useExchangeList> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const [image, setImage] = useState<PickedImage | null>(null);
  const kindParam = params.get('kind');
  const platIdParam = params.get('platId') ?? '';
  const form = useForm<RequestForm, unknown, RequestValues>({
    resolver,
    mode: 'onTouched',
    defaultValues: {
      kind: isKind(kindParam) ? kindParam : '',
      // Only an exchange the list offers: the select could not show another, yet would send it.
      platId: exchanges.data?.some((entry) => String(entry.id) === platIdParam) ? platIdParam : '',
      uid: params.get('uid') ?? '',
      address: '',
      text: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const kind = form.watch('kind');
  const text = form.watch('text');
  const message = (key: string | undefined) =>
    key ? t(`msg:${isMessageKey(key) ? key : 'invalidValue'}`) : undefined;

  const onSubmit = async (values: RequestValues) => {
    try {
      const created = await createSupportRequest({
        ...values,
        ...(image ? { image: wireImage(image) } : {}),
      });
      toast.success(t('msg:supportRequestSent'));
      await client.invalidateQueries({ queryKey: ['me', 'support'] });
      navigate(supportRequestHref(created.id));
    } catch {
      // The API client showed the server's reason (too many open requests, a UID not bound to another…).
    }
  };

  return (
    <form className="card form support-form" noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <Field
        id="support-kind"
        label={t('support.kind')}
        error={message(errors.kind?.message)}
        hint={
          kind ? (
            <span className="muted">{t(`support.kindHints.${kind}`, { days: OWNERSHIP.holdDays })}</span>
          ) : undefined
        }
      >
        <select {...form.register('kind')}>
          <option value="">{t('support.chooseKind')}</option>
          {SUPPORT_KINDS.map((value) => (
            <option key={value} value={value}>
              {t(`support.kinds.${value}`)}
            </option>
          ))}
        </select>
      </Field>
      {isUidKind(kind) ? (
        <fieldset className="support-fieldset">
          <legend>{t('support.aboutUid')}</legend>
          {isExchangeListUnavailable(exchanges) ? (
            <ExchangeListLoadError list={exchanges} />
          ) : (
            <Field
              id="support-exchange"
              label={t('support.exchange')}
              error={message(errors.platId?.message)}
            >
              <select {...form.register('platId')}>
                <option value="">{t('binding.chooseExchange')}</option>
                {exchanges.data?.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.name}
                  </option>
                ))}
              </select>
            </Field>
          )}
          <Field id="support-uid" label={t('support.uid')} error={message(errors.uid?.message)}>
            <input type="text" autoComplete="off" spellCheck={false} {...form.register('uid')} />
          </Field>
          {kind === 'uidBoundByOther' ? (
            <Field
              id="support-address"
              label={t('support.address')}
              error={message(errors.address?.message)}
              hint={<span className="muted">{t('support.addressHint')}</span>}
            >
              <input
                type="text"
                autoComplete="off"
                spellCheck={false}
                className="mono"
                {...form.register('address')}
              />
            </Field>
          ) : null}
        </fieldset>
      ) : null}
      <SupportTextField
        id="support-text"
        label={t('support.text')}
        length={text.length}
        error={message(errors.text?.message)}
        registration={form.register('text')}
      />
      <ImageField id="support-image" image={image} onChange={setImage} />
      <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
        {isSubmitting ? t('common.loading') : t('support.send')}
      </button>
    </form>
  );
}
