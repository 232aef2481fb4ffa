import type { MembershipCheck } from './types.js';

export interface BotResponse {
  status: number;
  body: unknown;
}

/**
 * GETs a bot API URL within the time limit. A timeout answers `{ outcome: 'timeout' }`; a network
 * failure or an unreadable body an error check. The URL may hold a token (Telegram puts it in the
 * path): it is never part of what this returns.
 */
export async function getJson(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<BotResponse | MembershipCheck> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') return { outcome: 'timeout' };
    return { outcome: 'error', detail: `network: ${(error as Error).message}` };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    const name = (error as Error).name;
    // The headers arrived in time but the body did not.
    if (name === 'TimeoutError' || name === 'AbortError') return { outcome: 'timeout' };
    return { outcome: 'error', detail: `HTTP ${response.status} with a body that is not JSON` };
  }
  return { status: response.status, body };
}

export function isCheck(value: BotResponse | MembershipCheck): value is MembershipCheck {
  return 'outcome' in value;
}
