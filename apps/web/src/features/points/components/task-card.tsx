import { type MembershipStatus, PATHS, SOCIAL_ACCOUNT_ID_PATTERNS, type Task } from '@elex/contract';
import { ExternalLink } from 'lucide-react';
import { type FormEvent, type ReactElement, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../shared/api/api-client';
import { formatInteger, formatUsdt } from '../../../shared/exchanges/format';
import { toast } from '../../../shared/ui/toast';
import { useVerifyMembership } from '../api/fetch-task-status';
import { useClaimTask } from '../api/receive-score';
import { XmeBindDialog } from './xme-bind-dialog';

/** How long a page that tried to open an app waits to be hidden before it calls the attempt failed. */
const APP_OPEN_WAIT_MS = 1_500;

/**
 * Tries the app's own link (tg://...). When the page is still in front after a moment, no app took
 * it: `onFail` says to check it is installed (spec section 8).
 */
export function openApp(
  appLink: string,
  onFail: () => void,
  navigate: (url: string) => void = (url) => window.location.assign(url),
) {
  let left = false;
  const onLeave = () => {
    left = true;
  };
  window.addEventListener('blur', onLeave);
  document.addEventListener('visibilitychange', onLeave);
  window.setTimeout(() => {
    window.removeEventListener('blur', onLeave);
    document.removeEventListener('visibilitychange', onLeave);
    if (!left && document.visibilityState === 'visible') onFail();
  }, APP_OPEN_WAIT_MS);
  navigate(appLink);
}

type Check = MembershipStatus | 'checking' | null;

const isSocial = (task: Task) => task.group === 'social';

/** The title of a task in the current language (a trade task names its volume). */
export function useTaskName() {
  const { t } = useTranslation();
  return (kind: string, threshold: string | null) =>
    t(`tasks.names.${kind}`, { volume: threshold ? formatInteger(threshold) : '', defaultValue: kind });
}

/**
 * One task with the spec's buttons: Join / Joined, Bind / Bound, Claim, Not Achieved. A Telegram or
 * Discord task also asks for the member's user id and has the bot verify membership.
 */
export function TaskCard({ task }: { task: Task }) {
  const { t } = useTranslation();
  const taskName = useTaskName();
  const claim = useClaimTask();
  const [xmeOpen, setXmeOpen] = useState(false);
  const [appFailed, setAppFailed] = useState(false);
  const titleId = useId();

  const onClaim = () =>
    claim.mutate(task.taskId, {
      onSuccess: () => toast.success(t('msg:claimSuccessful')),
      onError: (error) => {
        if (error instanceof ApiError && error.kind === 'session') return;
        // The server's refusal names the reason ('Claim Failed: Not Achieved').
        toast.error(
          error instanceof ApiError && error.kind === 'refused' ? error.message : t('msg:claimFailed'),
        );
      },
    });

  const onJoin = () => {
    if (task.appLink) {
      openApp(task.appLink, () => {
        setAppFailed(true);
        toast.warning(t('msg:appOpenFailed'));
      });
    } else if (task.link) {
      window.open(task.link, '_blank', 'noopener,noreferrer');
    }
  };

  const done = isSocial(task)
    ? t('tasks.buttons.joined')
    : task.group === 'binding'
      ? t('tasks.buttons.bound')
      : t('tasks.buttons.claimed');
  // The server refuses this claim until support decides the dispute on a UID of the member's
  // (claimFailedUidDisputed): the card says so instead of a Claim that would only fail.
  const awaitsDispute = task.state === 'claim' && task.awaitsDispute;
  const disputeNoteId = `${titleId}-dispute`;
  let action: ReactElement;
  if (awaitsDispute) {
    action = (
      <button type="button" className="button button-ghost" disabled aria-describedby={disputeNoteId}>
        {t('tasks.buttons.awaitingSupport')}
      </button>
    );
  } else if (task.state === 'claim') {
    action = (
      <button type="button" className="button button-primary" disabled={claim.isPending} onClick={onClaim}>
        {t('tasks.buttons.claim')}
      </button>
    );
  } else if (task.state === 'claimed' || task.state === 'bound') {
    action = (
      <button type="button" className="button button-ghost" disabled>
        {done}
      </button>
    );
  } else if (task.state === 'unfinished') {
    action = (
      <button type="button" className="button button-ghost" disabled>
        {t('tasks.buttons.notAchieved')}
      </button>
    );
  } else if (task.kind === 'bindUid') {
    action = (
      <Link to={PATHS.uidLinking} className="button button-primary">
        {t('tasks.buttons.bind')}
      </Link>
    );
  } else if (task.kind === 'bindXme') {
    action = (
      <button type="button" className="button button-primary" onClick={() => setXmeOpen(true)}>
        {t('tasks.buttons.bind')}
      </button>
    );
  } else {
    action = (
      <button type="button" className="button button-primary" onClick={onJoin} disabled={!task.link}>
        {task.kind === 'x' ? t('tasks.buttons.follow') : t('tasks.buttons.join')}
      </button>
    );
  }

  return (
    <li className="card task-card" aria-labelledby={titleId}>
      <div className="task-main">
        <h4 id={titleId} className="task-title">
          {taskName(task.kind, task.threshold)}
        </h4>
        <p className="task-points">
          {task.points > 0
            ? t('tasks.pointsReward', { points: formatInteger(String(task.points)) })
            : t('tasks.noPoints')}
        </p>
      </div>
      <p className="muted task-description">{t(`tasks.descriptions.${task.kind}`)}</p>
      {task.kind === 'tradingVolume' && task.threshold && task.progress ? (
        <TradeProgress task={task} />
      ) : null}
      {task.kind === 'x' ? <p className="task-note">{t('tasks.xNote')}</p> : null}
      {isSocial(task) && task.kind !== 'x' && task.state === 'unbound' ? (
        <MembershipCheck task={task} />
      ) : null}
      {isSocial(task) && task.state === 'claim' ? (
        <p className="task-note task-note-good">{t('tasks.status.joined')}</p>
      ) : null}
      {task.state === 'claimed' ? <p className="task-note task-note-good">{t('tasks.received')}</p> : null}
      {awaitsDispute ? (
        <p className="task-note">
          <span id={disputeNoteId}>{t('tasks.disputeNote')}</span>{' '}
          <Link to={PATHS.myPageSupport}>{t('tasks.disputeLink')}</Link>
        </p>
      ) : null}
      <div className="task-actions">
        {action}
        {task.appLink && task.link && (appFailed || task.state === 'unbound') ? (
          <a href={task.link} target="_blank" rel="noopener noreferrer" className="task-web-link">
            {t('tasks.openInBrowser')} <ExternalLink size={14} aria-hidden="true" />
            <span className="visually-hidden">{t('common.opensInNewWindow')}</span>
          </a>
        ) : null}
      </div>
      {task.kind === 'bindXme' ? <XmeBindDialog open={xmeOpen} onOpenChange={setXmeOpen} /> : null}
    </li>
  );
}

function TradeProgress({ task }: { task: Task }) {
  const { t } = useTranslation();
  const labelId = useId();
  const progress = Number(task.progress);
  const threshold = Number(task.threshold);
  // The bar is a picture of the ratio; the figures beside it are exact.
  const value = threshold > 0 ? Math.min(progress, threshold) : 0;
  return (
    <div className="task-progress">
      <p id={labelId} className="task-progress-label">
        <span>{t('tasks.progressLabel')}</span>
        <span>
          {t('tasks.progress', {
            current: formatUsdt(task.progress ?? '0'),
            threshold: formatInteger(task.threshold ?? '0'),
          })}
        </span>
      </p>
      <progress max={threshold || 1} value={value} aria-labelledby={labelId} />
    </div>
  );
}

/** The Telegram or Discord user id and the Verify button; the bot's answer in words. */
function MembershipCheck({ task }: { task: Task }) {
  const { t } = useTranslation();
  const verify = useVerifyMembership();
  const [accountId, setAccountId] = useState(task.accountId ?? '');
  const [check, setCheck] = useState<Check>(null);
  const [invalid, setInvalid] = useState(false);
  const fieldId = useId();
  const network = task.kind === 'discord' ? 'discord' : 'telegram';

  if (task.verification === 'unconfigured') {
    return <p className="task-note">{t('tasks.status.unavailable')}</p>;
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const value = accountId.trim();
    if (!SOCIAL_ACCOUNT_ID_PATTERNS[network].test(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setCheck('checking');
    verify.mutate(
      { taskId: task.taskId, accountId: value },
      {
        onSuccess: (answer) => {
          setCheck(answer.status);
          if (answer.status === 'timeout') toast.warning(t('msg:verificationTimeout'));
        },
        onError: () => setCheck(null),
      },
    );
  };

  return (
    <form className="task-verify" noValidate onSubmit={onSubmit}>
      <label htmlFor={fieldId}>{t(`tasks.accountLabel.${network}`)}</label>
      <div className="input-row">
        <input
          id={fieldId}
          className="input"
          inputMode="numeric"
          autoComplete="off"
          value={accountId}
          aria-invalid={invalid || undefined}
          aria-describedby={`${fieldId}-hint`}
          onChange={(event) => setAccountId(event.target.value)}
        />
        <button type="submit" className="button button-ghost" disabled={verify.isPending}>
          {verify.isPending ? t('tasks.buttons.checking') : t('tasks.buttons.verify')}
        </button>
      </div>
      <p id={`${fieldId}-hint`} className={invalid ? 'field-error' : 'field-hint'}>
        {invalid ? t('msg:socialAccountInvalid') : t(`tasks.accountHint.${network}`)}
      </p>
      <p className="task-check" role="status">
        {check === 'timeout' ? t('msg:verificationTimeout') : check ? t(`tasks.status.${check}`) : null}
      </p>
    </form>
  );
}
