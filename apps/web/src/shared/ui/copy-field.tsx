import { Copy } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../copy-text';
import { toast } from './toast';
import './copy-field.css';

/**
 * A read-only value with a copy button. The value stays selectable: when copying fails the member
 * copies it by hand, as the failure message asks.
 */
export function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  const { t } = useTranslation();
  const id = useId();
  const onCopy = async () => {
    if (await copyText(value)) toast.success(t('msg:copiedSuccessfully'));
    else {
      toast.error(t('msg:copyFailed'));
      const input = document.getElementById(id);
      if (input instanceof HTMLInputElement) {
        input.focus();
        input.select();
      }
    }
  };
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="input-row copy-row">
        <input id={id} className="mono" readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" className="button button-ghost" onClick={onCopy}>
          <Copy size={16} aria-hidden="true" />
          {copyLabel}
        </button>
      </div>
    </div>
  );
}
