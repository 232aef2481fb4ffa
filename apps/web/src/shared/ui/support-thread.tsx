import { SUPPORT, type SupportMessage } from '@elex/contract';
import { useTranslation } from 'react-i18next';
import './support-thread.css';

/**
 * A request's messages, oldest first: who wrote each (the member or support, named from the reader's
 * side), when, the text as written (line breaks kept) and the attached screenshot, or a line saying
 * it was erased after the retention.
 */
export function SupportThread({
  messages,
  reader,
  formatTime,
}: {
  messages: SupportMessage[];
  /** 'member' reads "You" and "Support"; 'operator' reads "Member" and "Support". */
  reader: 'member' | 'operator';
  formatTime(iso: string): string;
}) {
  const { t } = useTranslation();
  const authorName = (author: SupportMessage['author']) =>
    author === 'operator'
      ? t('support.thread.support')
      : reader === 'member'
        ? t('support.thread.you')
        : t('support.thread.member');
  return (
    <ol className="support-thread">
      {messages.map((message) => (
        <li
          key={message.id}
          className={`support-message ${message.author === reader ? 'support-message-own' : 'support-message-other'}`}
        >
          <article
            aria-label={t('support.thread.messageLabel', {
              author: authorName(message.author),
              time: formatTime(message.createdAt),
            })}
          >
            <header className="support-message-head">
              <strong>{authorName(message.author)}</strong>
              <time dateTime={message.createdAt} className="muted">
                {formatTime(message.createdAt)}
              </time>
            </header>
            <p className="support-message-text">{message.text}</p>
            {message.image ? (
              <img
                className="support-message-image"
                src={message.image}
                alt={t('support.thread.imageAlt', { author: authorName(message.author) })}
              />
            ) : message.imageErased ? (
              <p className="support-message-erased muted">
                {t('support.thread.imageErased', { days: SUPPORT.imageRetentionDays })}
              </p>
            ) : null}
          </article>
        </li>
      ))}
    </ol>
  );
}
