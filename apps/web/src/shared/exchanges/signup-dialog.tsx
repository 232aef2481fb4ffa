import { Clock, Copy, ExternalLink, Link2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { copyText } from '../copy-text';
import { ResponsiveDialog } from '../ui/responsive-dialog';
import { toast } from '../ui/toast';
import { ExchangeLogo } from './exchange-logo';
import { uidLinkingHref } from './paths';
import './signup-dialog.css';

export interface SignupExchange {
  id: number;
  name: string;
  logo: string;
  /** Null when the server offers no link yet (production, partner not ready): the step says so. */
  signupUrl: string | null;
  referralCode: string | null;
  newUserDiscountPercent: number;
  newUserDiscountDays: number;
}

/**
 * The exchange sign-up dialog: 1 sign up with our link (the exchange opens in a new window) and get
 * the new-user discount, 2 bind the UID (spec section 2; /uidlinking asks a visitor to log in first).
 * Without a link from the server (our referral code at this exchange is not set up yet) step 1 says
 * sign-up through us is coming soon instead of sending the trader where they would not be referred.
 */
export function SignupDialog({ exchange, onClose }: { exchange: SignupExchange | null; onClose(): void }) {
  const { t } = useTranslation();
  const copyCode = async () => {
    if (!exchange?.referralCode) return;
    // The shared copy falls back to the selection command where the Clipboard API is missing or denied.
    if (await copyText(exchange.referralCode)) toast.success(t('msg:copiedSuccessfully'));
    else toast.error(t('msg:copyFailed'));
  };
  return (
    <ResponsiveDialog
      open={exchange !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={exchange ? t('exchanges.signup.title', { name: exchange.name }) : ''}
    >
      {exchange ? (
        <div className="signup-dialog">
          <div className="signup-exchange">
            <ExchangeLogo logo={exchange.logo} name={exchange.name} size={40} decorative />
            <p className="signup-discount">
              {t('exchanges.signup.discount', {
                percent: exchange.newUserDiscountPercent,
                days: exchange.newUserDiscountDays,
              })}
            </p>
          </div>
          <ol className="signup-steps">
            <li>
              <h3>{t('exchanges.signup.step1Title')}</h3>
              {exchange.signupUrl && exchange.referralCode ? (
                <>
                  <p className="muted">{t('exchanges.signup.step1Body', { name: exchange.name })}</p>
                  <a
                    className="button button-primary button-block"
                    href={exchange.signupUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                  >
                    {t('exchanges.signup.open', { name: exchange.name })}
                    <ExternalLink size={16} aria-hidden="true" />
                    <span className="visually-hidden"> {t('common.opensInNewWindow')}</span>
                  </a>
                  <p className="referral-code">
                    <span className="muted">{t('exchanges.signup.code')}</span>{' '}
                    <strong className="mono">{exchange.referralCode}</strong>
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={t('exchanges.signup.copyCode')}
                      onClick={() => void copyCode()}
                    >
                      <Copy size={16} aria-hidden="true" />
                    </button>
                  </p>
                </>
              ) : (
                <p className="signup-unavailable">
                  <Clock size={16} aria-hidden="true" />
                  <span>{t('exchanges.signup.unavailable', { name: exchange.name })}</span>
                </p>
              )}
            </li>
            <li>
              <h3>{t('exchanges.signup.step2Title')}</h3>
              <p className="muted">{t('exchanges.signup.step2Body')}</p>
              <Link to={uidLinkingHref(exchange.id)} className="button button-ghost button-block">
                <Link2 size={16} aria-hidden="true" />
                {t('exchanges.signup.bind')}
              </Link>
            </li>
          </ol>
          <p className="muted small-print">{t('exchanges.signup.existing')}</p>
        </div>
      ) : null}
    </ResponsiveDialog>
  );
}
