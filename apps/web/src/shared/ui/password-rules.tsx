import { passwordRuleChecks } from '@elex/contract';
import { Check, X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import './password-rules.css';

/** spec: register shows the password rules live as the user types. */
export function PasswordRules({ value }: { value: string }) {
  const { t } = useTranslation();
  const rules = [
    { key: 'passwordLength', met: passwordRuleChecks.length(value) },
    { key: 'passwordComposition', met: passwordRuleChecks.composition(value) },
  ] as const;
  return (
    <ul className="rule-list">
      {rules.map((rule) => (
        <li key={rule.key} className={rule.met ? 'rule-met' : 'rule-unmet'}>
          {rule.met ? <Check size={16} aria-hidden="true" /> : <X size={16} aria-hidden="true" />}
          <span>{t(`msg:${rule.key}`)}</span>
          <span className="visually-hidden">{rule.met ? t('auth.ruleMet') : t('auth.ruleUnmet')}</span>
        </li>
      ))}
    </ul>
  );
}
