import { type ReactNode, useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation';

/** Every page: one h1, the document title in the current language, and a content column. */
export function Page({
  title,
  intro,
  children,
  wide,
  narrow,
}: {
  title: string;
  intro?: string;
  children?: ReactNode;
  wide?: boolean;
  /** One form (login, register, reset, bind): a centred column as wide as the form (issue 15). */
  narrow?: boolean;
}) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t('brand.name')}`;
  }, [title, t]);
  return (
    <div className={wide ? 'page page-wide' : narrow ? 'page page-narrow' : 'page'}>
      <header className="page-header">
        <h1>{title}</h1>
        {intro ? <p className="page-intro">{intro}</p> : null}
      </header>
      {children}
    </div>
  );
}
