import * as z from 'zod';

/** Every `/elex` answer: `{ state, message, content }` (spec section 7). */
export interface Envelope<T> {
  state: number;
  message: string;
  content: T;
}

export function envelopeSchema<T extends z.ZodType>(content: T) {
  return z.object({ state: z.number().int(), message: z.string(), content });
}

/**
 * The `content` of a success that answers nothing but its state and message (a logout, a deletion, a
 * code that checks out): `null`. One schema for every such call of the endpoint table.
 */
export const NoContentSchema = z.null();
