import type { PointsHistory, SignHistory, Task, TaskDetail } from '@elex/contract';
import { vi } from 'vitest';
import { envelope } from '../../test/helpers';

/** Answers per call path; a function answer sees the request body. Unknown paths fail the test loudly. */
export type Answers = Record<
  string,
  Response | ((body: Record<string, unknown>) => Response | Promise<Response>)
>;

export function stubApi(answers: Answers) {
  const calls: Array<{ path: string; body: Record<string, unknown> }> = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ path, body });
    const answer = answers[path];
    if (!answer) throw new Error(`no stubbed answer for ${path}`);
    return typeof answer === 'function' ? answer(body) : answer.clone();
  });
  vi.stubGlobal('fetch', fetch);
  return { fetch, calls, count: (path: string) => calls.filter((call) => call.path === path).length };
}

export function signHistory(overrides: Partial<SignHistory> = {}): SignHistory {
  return {
    month: '2026-03',
    signedDays: ['2026-03-09'],
    today: '2026-03-10',
    isSignToday: false,
    streak: 1,
    pointsPerDay: 10,
    ...overrides,
  };
}

export const EMPTY_HISTORY: PointsHistory = {
  entries: [],
  total: 0,
  page: 1,
  pageSize: 10,
  points: 120,
  xmeEnergy: 1000,
};

export function task(overrides: Partial<Task> & Pick<Task, 'taskId' | 'kind' | 'group'>): Task {
  return {
    points: 50,
    state: 'unbound',
    verification: 'account',
    link: null,
    appLink: null,
    threshold: null,
    progress: null,
    accountId: null,
    awaitsDispute: false,
    ...overrides,
  };
}

export function taskDetail(tasks: Task[]): TaskDetail {
  return {
    groups: (['social', 'binding', 'trade'] as const).map((group) => ({
      group,
      tasks: tasks.filter((item) => item.group === group),
    })),
    tradingVolume: '0.000000',
    points: 120,
  };
}

export { envelope };
