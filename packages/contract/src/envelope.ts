import { z } from 'zod';

/** Every `/elex` answer: `{ state, message, content }` (spec section 7). */
export interface Envelope<T> {
  state: number;
  message: string;
  content: T;
}

export function envelopeSchema<T extends z.ZodType>(content: T) {
  return z.object({ state: z.number().int(), message: z.string(), content });
}
