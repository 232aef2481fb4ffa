import { DEFAULT_CHANNEL, type Locale, type TrackRequest } from '@elex/contract';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { insertAnalyticsEvent } from './analytics.repository.js';

export interface TrackContext {
  agent: string;
  locale: Locale;
}

/** Stores a page view or named event; the client's time is kept beside ours, never trusted alone. */
export async function recordEvent(db: Database, clock: Clock, request: TrackRequest, context: TrackContext) {
  await insertAnalyticsEvent(db, {
    event: request.event,
    page: request.page,
    channel: request.channel?.trim() || DEFAULT_CHANNEL,
    agent: context.agent.slice(0, 512),
    locale: context.locale,
    clientTime: request.time ? new Date(request.time) : null,
    receivedAt: clock.now(),
  });
}

// Housekeeping prunes old events through this service (docs/architecture.md, "Boundaries").
export { deleteEventsReceivedBefore } from './analytics.repository.js';
