/**
 * Per-IP limits on the calls that reveal accounts or check secrets (logging in, codes, a UID's owner,
 * a withdrawal code's guess), on top of the code caps counted in the database. Shared through Redis
 * when REDIS_URL is set. Here, below the modules, because several modules' routes use it.
 */
export const AUTH_RATE_LIMIT = { max: 20, timeWindow: 60_000 } as const;
