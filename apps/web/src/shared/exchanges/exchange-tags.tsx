import type { ExchangeMark } from '@elex/contract';
import { useTranslation } from '../i18n/use-translation';

/** An exchange's tags: a translated label with its icon (the label says it all, the icon is decorative). */
export function ExchangeTags({ marks }: { marks: readonly ExchangeMark[] }) {
  const { t } = useTranslation();
  if (marks.length === 0) return null;
  return (
    <ul className="exchange-tags">
      {marks.map((mark) => (
        <li key={mark.tag} className="exchange-tag">
          {mark.iconUrl ? <img src={mark.iconUrl} alt="" width={14} height={14} /> : null}
          <span>{t(`exchanges.tags.${mark.tag}`, { defaultValue: mark.tag })}</span>
        </li>
      ))}
    </ul>
  );
}
