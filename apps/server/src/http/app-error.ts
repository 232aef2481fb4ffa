import { type MessageKey, State, type StateCode } from '@elex/contract';

/**
 * The one way a service refuses: a state from the contract's catalogue and a message key that the
 * error handler renders in the request's language. `content` is the envelope's content, null unless a
 * client needs a figure from the refusal (the code cool-down's seconds left).
 */
export class AppError extends Error {
  constructor(
    readonly state: Exclude<StateCode, typeof State.Success>,
    readonly messageKey: MessageKey,
    readonly values: Record<string, string | number> = {},
    readonly content: Record<string, number | string> | null = null,
  ) {
    super(messageKey);
    this.name = 'AppError';
  }

  /** A business rule said no (wrong code, e-mail exists ...). */
  static refused(messageKey: MessageKey, values?: Record<string, string | number>) {
    return new AppError(State.Refused, messageKey, values);
  }
}
