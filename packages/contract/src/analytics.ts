import * as z from 'zod';

/** Named events the web sends besides page views (spec section 4). */
export const TRACK_EVENTS = [
  'page_view',
  'Login_success',
  'Login_Error',
  'Register_success',
  'Register_Error',
] as const;

/** `POST /elex/track`: a page view or a named event, first-party analytics. */
export const TrackRequestSchema = z.object({
  event: z.enum(TRACK_EVENTS),
  page: z.string().max(512),
  channel: z.string().max(64).optional(),
  // Coerced: a form-encoded body (spec: the default content type) sends every value as text.
  // At most 9999-12-31T23:59:59.999Z: a later one is no time a database stores.
  time: z.coerce.number().int().positive().max(253_402_300_799_999).optional(),
});
export type TrackRequest = z.infer<typeof TrackRequestSchema>;
