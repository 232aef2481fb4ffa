import { displayUsdt, OWNERSHIP, polygonAddressSchema, WITHDRAWAL, type Withdrawable } from '@elex/contract';
import { LifeBuoy } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatLocalTime } from '../../../shared/i18n/intl-formats';
import { newSupportRequestHref } from '../../../shared/navigation/support-paths';
import { Field } from '../../../shared/ui/field';
import { type AmountProblem, checkAmount, shortfallOf } from '../amount-rules';
import { formatWithdrawalAmount } from '../format-amount';

export interface WithdrawalValues {
  platId: number;
  uid: string;
  address: string;
  amount: string;
}

interface FormValues {
  binding: string;
  address: string;
  amount: string;
}

type Binding = Withdrawable['bindings'][number];
const keyOf = (binding: Pick<Binding, 'platId' | 'uid'>) => `${binding.platId}:${binding.uid}`;

/** A refusal's figures as the page shows amounts (the contract's are plain digits, for the server). */
function shownValues(problem: AmountProblem): Record<string, string> {
  switch (problem.key) {
    case 'withdrawalBelowMinimum':
      return { ...problem.values, shortfall: formatWithdrawalAmount(problem.values.shortfall) };
    case 'withdrawalOverBalance':
      return { available: formatWithdrawalAmount(problem.values.available) };
    default:
      return {};
  }
}

/**
 * Choose a bound UID, the receiving address (the binding's, or another the member types) and the
 * amount, with a max button; below, what this UID can withdraw and how much is still needed.
 */
export function WithdrawalForm({
  withdrawable,
  preferred,
  exchangeName,
  isLocked,
  onSubmit,
}: {
  withdrawable: Withdrawable;
  /** The UID to choose first, when it is one of the member's (else the first binding). */
  preferred?: Pick<Binding, 'platId' | 'uid'>;
  exchangeName(platId: number): string;
  isLocked: boolean;
  onSubmit(values: WithdrawalValues): Promise<void>;
}) {
  const { t } = useTranslation();
  const first =
    withdrawable.bindings.find((binding) => preferred && keyOf(binding) === keyOf(preferred)) ??
    withdrawable.bindings[0];
  const form = useForm<FormValues>({
    mode: 'onTouched',
    defaultValues: { binding: first ? keyOf(first) : '', address: first?.address ?? '', amount: '' },
  });
  const { errors, isSubmitting, touchedFields } = form.formState;
  const chosenKey = form.watch('binding');
  const chosen = withdrawable.bindings.find((binding) => keyOf(binding) === chosenKey) ?? first;
  const shortfall = chosen ? shortfallOf(chosen.withdrawable) : WITHDRAWAL.minimumMicroUsdt;
  // A new binding held for its ownership check, or a UID under dispute: nothing can be withdrawn.
  const isHeld = Boolean(chosen && (chosen.frozen || chosen.heldUntil));
  const canWithdraw = !isLocked && !isHeld && shortfall === 0n;

  // Another UID: its bound address, and the amount checked against its balance. Only on the member's
  // choice, so a refreshed balance never overwrites an address the member typed.
  const chooseBinding = (key: string) => {
    const binding = withdrawable.bindings.find((entry) => keyOf(entry) === key);
    if (binding)
      form.setValue('address', binding.address, { shouldValidate: Boolean(touchedFields.address) });
    if (touchedFields.amount) void form.trigger('amount');
  };

  const validateAmount = (value: string) => {
    // The binding chosen now (the select's change may not have rendered yet).
    const current = withdrawable.bindings.find((entry) => keyOf(entry) === form.getValues('binding'));
    const problem = checkAmount(value, current?.withdrawable ?? '0');
    return problem ? t(`msg:${problem.key}`, shownValues(problem)) : true;
  };
  const validateAddress = (value: string) => {
    const parsed = polygonAddressSchema.safeParse(value);
    return parsed.success || t(`msg:${parsed.error.issues[0]?.message ?? 'walletAddressInvalid'}`);
  };

  const submit = form.handleSubmit(async (values) => {
    const binding = withdrawable.bindings.find((entry) => keyOf(entry) === values.binding);
    if (!binding) return;
    await onSubmit({
      platId: binding.platId,
      uid: binding.uid,
      address: values.address.trim(),
      amount: values.amount.trim(),
    });
  });

  return (
    <form className="card form withdrawal-form" noValidate onSubmit={submit}>
      <fieldset disabled={isLocked} className="plain-fieldset">
        <legend className="visually-hidden">{t('withdrawal.formTitle')}</legend>
        <Field id="withdrawal-binding" label={t('withdrawal.uid')}>
          <select {...form.register('binding', { onChange: (event) => chooseBinding(event.target.value) })}>
            {withdrawable.bindings.map((binding) => (
              <option key={keyOf(binding)} value={keyOf(binding)}>
                {t('withdrawal.uidOption', { exchange: exchangeName(binding.platId), uid: binding.uid })}
              </option>
            ))}
          </select>
        </Field>
        {chosen ? (
          <dl className="withdrawal-summary">
            <div>
              <dt>{t('withdrawal.cashback')}</dt>
              <dd>{t('withdrawal.usdtValue', { amount: formatWithdrawalAmount(chosen.cashback) })}</dd>
            </div>
            <div>
              <dt>{t('withdrawal.rewards')}</dt>
              <dd>{t('withdrawal.usdtValue', { amount: formatWithdrawalAmount(withdrawable.rewards) })}</dd>
            </div>
            {withdrawable.rewardsHeld ? (
              <div>
                <dt>{t('withdrawal.rewardsHeld')}</dt>
                <dd>
                  {t('withdrawal.usdtValue', {
                    amount: `−${formatWithdrawalAmount(withdrawable.rewardsHeld.amount)}`,
                  })}
                </dd>
              </div>
            ) : null}
            <div>
              <dt>{t('withdrawal.withdrawable')}</dt>
              <dd className="strong">
                {t('withdrawal.usdtValue', { amount: formatWithdrawalAmount(chosen.withdrawable) })}
              </dd>
            </div>
          </dl>
        ) : null}
        {chosen && withdrawable.rewardsHeld ? <HeldBonusesNote held={withdrawable.rewardsHeld} /> : null}
        <Field
          id="withdrawal-address"
          label={t('withdrawal.address')}
          error={errors.address?.message}
          hint={<span className="muted">{t('withdrawal.addressHint')}</span>}
        >
          <input
            type="text"
            autoComplete="off"
            spellCheck={false}
            className="mono"
            {...form.register('address', { validate: validateAddress })}
          />
        </Field>
        <div className="field">
          <label htmlFor="withdrawal-amount">{t('withdrawal.amount')}</label>
          <div className="input-row">
            <input
              id="withdrawal-amount"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={errors.amount ? true : undefined}
              aria-describedby={[
                errors.amount ? 'withdrawal-amount-error' : '',
                'withdrawal-amount-hint',
                withdrawable.rewardsHeld ? 'withdrawal-rewards-held' : '',
              ]
                .filter(Boolean)
                .join(' ')}
              {...form.register('amount', { validate: validateAmount })}
            />
            <button
              type="button"
              className="button button-ghost"
              disabled={!chosen || !canWithdraw}
              aria-label={t('withdrawal.maxLabel', {
                amount: formatWithdrawalAmount(chosen?.withdrawable ?? '0'),
              })}
              onClick={() =>
                chosen &&
                // The digits as the form reads them back: a grouped figure is no amount.
                form.setValue('amount', displayUsdt(chosen.withdrawable), {
                  shouldValidate: true,
                  shouldTouch: true,
                  shouldDirty: true,
                })
              }
            >
              {t('withdrawal.max')}
            </button>
          </div>
          <div id="withdrawal-amount-hint" className="field-hint">
            <span className="muted">{t('withdrawal.amountHint', { minimum: WITHDRAWAL.minimumUsdt })}</span>
          </div>
          {errors.amount ? (
            <p id="withdrawal-amount-error" className="field-error">
              {errors.amount.message}
            </p>
          ) : null}
        </div>
        {chosen && isHeld ? <HeldNotice binding={chosen} /> : null}
        {/* The balance's line: "reached" is not shown beside the amount's own error (49.99 typed on a
            balance of 150 read red "0.01 more is needed" and green "the minimum is reached" at once). */}
        {shortfall > 0n ? (
          <p className="shortfall" role="status">
            {t('withdrawal.shortfall', {
              shortfall: formatWithdrawalAmount(shortfall),
              minimum: WITHDRAWAL.minimumUsdt,
            })}
          </p>
        ) : errors.amount ? null : (
          <p className="shortfall reached" role="status">
            {t('withdrawal.reached', { minimum: WITHDRAWAL.minimumUsdt })}
          </p>
        )}
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={!canWithdraw || isSubmitting}
        >
          {isSubmitting ? t('common.loading') : t('withdrawal.submit')}
        </button>
        <p className="muted form-note">{t('withdrawal.codeNote', { hours: WITHDRAWAL.reviewHours })}</p>
      </fieldset>
    </form>
  );
}

/**
 * Why the chosen UID cannot be withdrawn now (issue 11), and the way out: a frozen UID waits for
 * support's decision on a dispute; a new binding's hold ends at its date or sooner once support has
 * seen a screenshot of the exchange account.
 */
function HeldNotice({ binding }: { binding: Binding }) {
  const { t } = useTranslation();
  const about = { platId: binding.platId, uid: binding.uid };
  return (
    <div className="held-notice" role="status">
      <p>
        {binding.frozen
          ? t('msg:withdrawalFrozen')
          : t('msg:withdrawalOwnershipHeld', {
              time: formatLocalTime(binding.heldUntil ?? ''),
            })}
      </p>
      <Link
        to={
          binding.frozen
            ? newSupportRequestHref(about)
            : newSupportRequestHref({ kind: 'ownership', ...about })
        }
        className="button button-ghost"
      >
        <LifeBuoy size={16} aria-hidden="true" />
        {binding.frozen ? t('withdrawal.contactSupport') : t('withdrawal.sendScreenshot')}
      </Link>
    </div>
  );
}

/**
 * Why part of the rewards cannot be sent yet: invite bonuses paid by a friend's UID still in its
 * ownership check wait with it (until its date), or for the dispute on it to be settled.
 */
function HeldBonusesNote({ held }: { held: NonNullable<Withdrawable['rewardsHeld']> }) {
  const { t } = useTranslation();
  const amount = formatWithdrawalAmount(held.amount);
  const time = held.until ? formatLocalTime(held.until) : null;
  return (
    <p id="withdrawal-rewards-held" className="muted form-note">
      {time && !held.disputed
        ? t('withdrawal.rewardsHeldUntil', { amount, time, days: OWNERSHIP.holdDays })
        : t('withdrawal.rewardsHeldDisputed', { amount })}
    </p>
  );
}
