import { controlCharacterPath, isMessageKey, type Locale, State, translate } from '@elex/contract';
import type { z } from 'zod';
import { AppError } from './app-error.js';

/** Parses a payload with a contract schema; a failure becomes a validation state naming the field. */
export function parsePayload<T extends z.ZodType>(schema: T, payload: unknown): z.output<T> {
  const input = payload ?? {};
  // Before any schema: a control character in any field (NUL first of all) never reaches a query.
  const controlled = controlCharacterPath(input);
  if (controlled !== null) throw new ValidationError(controlled, 'controlCharacters');
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'body';
  // A wrong type is only "required" when nothing was sent; `page: 42` is an invalid value.
  const reasonKey =
    issue && isMessageKey(issue.message)
      ? issue.message
      : issue?.code === 'invalid_type' && valueAt(input, issue.path) == null
        ? 'requiredValue'
        : 'invalidValue';
  throw new ValidationError(field, reasonKey);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export class ValidationError extends AppError {
  constructor(
    readonly field: string,
    readonly reasonKey: Parameters<typeof translate>[1],
  ) {
    super(State.ValidationFailed, reasonKey);
  }

  render(locale: Locale): string {
    return translate(locale, 'invalidField', {
      field: this.field,
      reason: translate(locale, this.reasonKey),
    });
  }
}
