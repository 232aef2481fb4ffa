/**
 * Per-IP limits on the calls that reveal accounts or check secrets (logging in, codes, a UID's owner,
 * a withdrawal code's guess), on top of the code caps counted in the database. Shared through Redis
 * when REDIS_URL is set. Here, below the modules, because several modules' routes use it.
 */
export const AUTH_RATE_LIMIT = { max: 20, timeWindow: 60_000 } as const;

/**
 * The calls that check a signed-in member's password (updatePass, deleteAccount) are also counted
 * per session, wherever they come from: a stolen token used through many addresses would otherwise
 * guess on, 20 a minute per address, and a right guess deletes the account and its money. A member who
 * reaches it logs in again (which needs the mailbox's code) and counts afresh.
 */
export const SESSION_PASSWORD_CHECKS = { max: 10, timeWindow: 60 * 60_000 } as const;
