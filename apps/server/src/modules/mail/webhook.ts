/**
 * A JSON POST with a deadline, for the outbox's webhook rows (docs/operations.md, "Alerts"). Any
 * answer other than 2xx, a refused connection or the deadline passing throws, and the outbox retries
 * the row with its backoff, as it does a mail.
 */
export const WEBHOOK_TEMPLATE = 'webhook';
const WEBHOOK_TIMEOUT_MS = 5_000;

export async function postJson(url: string, body: unknown, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'elex-alerts' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'error',
  });
  // The body is not needed; reading it frees the connection.
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`webhook answered HTTP ${response.status}`);
}
