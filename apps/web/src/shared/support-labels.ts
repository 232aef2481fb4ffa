import type { SupportDetail, SupportStatus } from '@elex/contract';

/** The status badge's look: waiting (amber), answered (green), closed (grey). */
export const STATUS_CLASS: Record<SupportStatus, string> = {
  open: 'status status-pending',
  answered: 'status status-completed',
  closed: 'status status-cancelled',
};

/**
 * How a closed request ended, for the member who asked. 'verified' means the opposite things to a
 * member who proved their own UID and to one who disputed someone else's: the holder was confirmed.
 */
export function memberResolutionKey(request: Pick<SupportDetail, 'kind' | 'resolution'>) {
  if (!request.resolution) return null;
  if (request.resolution === 'verified' && request.kind === 'uidBoundByOther')
    return 'support.resolutions.holderConfirmed' as const;
  return `support.resolutions.${request.resolution}` as const;
}
