import {
  buildSignupUrl,
  isPlaceholderReferralCode,
  PLACEHOLDER_REFERRAL_CODE,
  referralCodeSchema,
  signupTemplateProblem,
} from '@elex/contract';
import { ExternalLink } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The link traders will open, built as the server builds it from the template and the code being
 * typed, so an operator sees the result before saving; and whether production will offer it.
 */
export function SignupLinkPreview({ template, referralCode }: { template: string; referralCode: string }) {
  const { t } = useTranslation();
  const labelId = useId();
  const code = referralCode.trim();
  const valid = referralCodeSchema.safeParse(code).success && signupTemplateProblem(template.trim()) === null;
  const link = valid ? buildSignupUrl(template.trim(), code) : null;
  return (
    <div className="admin-signup-preview" role="group" aria-labelledby={labelId}>
      <p id={labelId} className="admin-signup-preview-label">
        {t('admin.catalog.signupPreview')}
      </p>
      {link ? (
        <a className="mono" href={link} target="_blank" rel="noopener noreferrer">
          {link}
          <ExternalLink size={14} aria-hidden="true" />
          <span className="visually-hidden"> {t('common.opensInNewWindow')}</span>
        </a>
      ) : (
        <p className="muted">{t('admin.catalog.signupPreviewInvalid')}</p>
      )}
      {isPlaceholderReferralCode(code) ? (
        <p className="field-error">
          {t('admin.catalog.signupPreviewPlaceholder', { code: PLACEHOLDER_REFERRAL_CODE })}
        </p>
      ) : null}
    </div>
  );
}
