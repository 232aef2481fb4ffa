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

/** 55P03, lock_not_available: a lock wait ran past `lock_timeout`. */
export const isLockTimeout = (error: unknown) => hasPgErrorCode(error, '55P03');
