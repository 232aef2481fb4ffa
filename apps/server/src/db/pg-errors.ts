/**
 * PostgreSQL error codes a service acts on, found on the error or anywhere down its `cause` chain
 * (drizzle wraps the driver's error). One place instead of a copy per module.
 */
function hasPgErrorCode(error: unknown, code: string): boolean {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === code) return true;
  }
  return false;
}

/** 23505: a unique index refused the row (a race another request won). */
export const isUniqueViolation = (error: unknown) => hasPgErrorCode(error, '23505');

/** The constraint a refused row broke, as the server named it, on the error or down its `cause` chain. */
export function violatedConstraint(error: unknown): string | undefined {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    const constraint = (cause as { constraint?: unknown }).constraint;
    if (typeof constraint === 'string') return constraint;
  }
  return undefined;
}

/**
 * Data exceptions a value from outside causes: too long for its column (22001), out of a number's
 * range (22003), a date or time the database cannot read or hold (22007, 22008), text it cannot
 * store or parse (22021, 22P02, 22P05). The contract's schemas refuse such values first; this is the
 * net for one they miss, so it answers as bad input rather than as a fault of the server.
 */
const INPUT_DATA_EXCEPTIONS = ['22001', '22003', '22007', '22008', '22021', '22P02', '22P05'];
export const isInputDataException = (error: unknown) =>
  INPUT_DATA_EXCEPTIONS.some((code) => hasPgErrorCode(error, code));

/** 55P03, lock_not_available: a lock wait ran past `lock_timeout`. */
export const isLockTimeout = (error: unknown) => hasPgErrorCode(error, '55P03');

/**
 * 40P01, deadlock_detected: PostgreSQL aborted this transaction to break a cycle of lock waits. The
 * money paths take their locks in one order so it should not happen; if it does, nothing was written
 * and the same request can be sent again.
 */
export const isDeadlock = (error: unknown) => hasPgErrorCode(error, '40P01');
