/**
 * The state-code catalogue of every `/elex` answer. HTTP status stays 200 for business outcomes;
 * only an unexpected fault answers HTTP 500.
 */
export const State = {
  /** The call did what it was asked. */
  Success: 0,
  /** No token, an unknown token, a revoked or expired session: the client drops its token. */
  SessionExpired: -5000,
  /** The payload failed a contract schema; the message names the field. */
  ValidationFailed: 1001,
  /** A business rule refused the call (wrong code, e-mail exists, balance too low ...). */
  Refused: 1002,
  /** The caller is logged in but lacks the role the call needs. */
  Forbidden: 1003,
  /** Unknown `/elex` path or a record that does not exist. */
  NotFound: 1004,
  /** A rate limit or cool-down refused the call; the message says how long to wait. */
  TooManyRequests: 1029,
  /** An unexpected fault; the message is generic, the details are in the server log. */
  ServerError: 1500,
} as const;
export type StateCode = (typeof State)[keyof typeof State];
