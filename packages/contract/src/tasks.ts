import * as z from 'zod';
import type { MessageKey } from './messages.js';

/**
 * Points tasks (spec sections 3, 4 and 7): three groups, social, binding and trade. Definitions
 * (points, thresholds, links) live in the server's task table, so an operator can change them.
 *
 * Claim states, in the spec's words:
 * - `unbound`: the member has not done it yet (not joined, nothing bound): button Join / Bind.
 * - `claim`: done, points waiting: button Claim.
 * - `claimed`: points received: button Joined / Bound / Claimed, disabled.
 * - `unfinished`: a trade task whose volume is not reached: button Not Achieved, disabled.
 * - `bound`: done, but the task pays no points (an operator set them to 0): Joined / Bound, disabled.
 */
export const TASK_GROUPS = ['social', 'binding', 'trade'] as const;
export type TaskGroup = (typeof TASK_GROUPS)[number];

/**
 * What a task asks, which decides how it is checked: `telegram` (join the messaging channel) and
 * `discord` (join the chat community) by their bot APIs; `x` (follow the social account) cannot be
 * checked, so it pays nothing; `bindUid` and `bindXme` by the bindings; `tradingVolume` by the
 * cumulative trading volume of the member's bound UIDs.
 */
export const TASK_KINDS = ['telegram', 'discord', 'x', 'bindUid', 'bindXme', 'tradingVolume'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export const TASK_CLAIM_STATES = ['unbound', 'bound', 'claim', 'claimed', 'unfinished'] as const;
export type TaskClaimState = (typeof TASK_CLAIM_STATES)[number];

/**
 * How the server learns a task is done: `bot` (asked the community's bot API), `unconfigured` (a bot
 * task whose bot token is not configured: it cannot be verified now and never pays unverified),
 * `none` (no way to check: the X follow), `account` (the member's own bindings or trading data).
 */
export const TASK_VERIFICATIONS = ['bot', 'unconfigured', 'none', 'account'] as const;
export type TaskVerification = (typeof TASK_VERIFICATIONS)[number];

/** The social networks whose membership a bot can check. */
export const SOCIAL_NETWORKS = ['telegram', 'discord'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

const fail = (key: MessageKey) => ({ error: key });
const usdt = z.string();

export const TaskSchema = z.object({
  taskId: z.string(),
  group: z.enum(TASK_GROUPS),
  kind: z.enum(TASK_KINDS),
  /**
   * What a claim pays now; a `claimed` task: what the member was paid (their points entry), which an
   * operator's later change of the task does not alter.
   */
  points: z.number().int(),
  state: z.enum(TASK_CLAIM_STATES),
  verification: z.enum(TASK_VERIFICATIONS),
  /** Where the member joins or follows (social tasks), else null. */
  link: z.string().nullable(),
  /** The app's own link (tg://, discord://) tried first; null when there is none. */
  appLink: z.string().nullable(),
  /**
   * Trade tasks: the cumulative volume to reach, USDT; a `claimed` tier: the volume it was claimed
   * under (kept with the member's points entry). Else null.
   */
  threshold: usdt.nullable(),
  /** Trade tasks: the member's cumulative volume now, USDT; else null. */
  progress: usdt.nullable(),
  /** Bot tasks: the member's Telegram or Discord user id as they entered it, else null. */
  accountId: z.string().nullable(),
  /**
   * The binding and trade tasks, not yet claimed: one of the member's live UIDs is under an open
   * dispute, so a claim is refused ('claimFailedUidDisputed') until support has decided. The screen
   * says so instead of offering a Claim that cannot succeed. False for every other task.
   */
  awaitsDispute: z.boolean(),
});
export type Task = z.infer<typeof TaskSchema>;

// /elex/exchange/getExchangeTaskDetail {}: every enabled task in its group, with the member's state.
export const TaskDetailSchema = z.object({
  groups: z.array(z.object({ group: z.enum(TASK_GROUPS), tasks: z.array(TaskSchema) })),
  /** Cumulative trading volume of the member's bound UIDs, USDT (the trade tasks measure this). */
  tradingVolume: usdt,
  /** The member's points balance. */
  points: z.number().int(),
});
export type TaskDetail = z.infer<typeof TaskDetailSchema>;

const taskIdSchema = z
  .string(fail('requiredValue'))
  .trim()
  .min(1, fail('requiredValue'))
  .max(64, fail('invalidValue'));

// /elex/exchange/receiveScore {taskId}: claims a task's points once; 'Claim Successful' or 'Claim Failed: <reason>'.
export const ReceiveScoreRequestSchema = z.object({ taskId: taskIdSchema });
export const ReceiveScoreResponseSchema = z.object({
  taskId: z.string(),
  pointsEarned: z.number().int(),
  /** The balance after the claim. */
  points: z.number().int(),
  state: z.enum(TASK_CLAIM_STATES),
});
export type ReceiveScoreResponse = z.infer<typeof ReceiveScoreResponseSchema>;

/** Telegram user ids are positive integers (up to 52 bits); Discord ids are 17-20 digit snowflakes. */
export const SOCIAL_ACCOUNT_ID_PATTERNS: Record<SocialNetwork, RegExp> = {
  telegram: /^[1-9]\d{4,15}$/,
  discord: /^[1-9]\d{16,19}$/,
};

// /elex/exchange/fetchMetiaTaskStatus {taskId, accountId?}: asks the community's bot whether the
// member joined. `accountId` (their Telegram or Discord user id) is stored for the member when sent.
export const FetchTaskStatusRequestSchema = z.object({
  taskId: taskIdSchema,
  accountId: z
    .string()
    .trim()
    .max(32, fail('invalidValue'))
    .optional()
    .transform((value) => value || undefined),
});
export type FetchTaskStatusRequest = z.input<typeof FetchTaskStatusRequestSchema>;

/**
 * `joined` (the bot sees the member: the task can be claimed), `notJoined`, `timeout` (the bot API
 * did not answer in time: 'Verification timeout. If you have already joined, please refresh the
 * page.'), `error` (it answered with an error), `unavailable` (no bot configured). The web shows
 * `checking` while it waits for this answer.
 */
export const MEMBERSHIP_STATUSES = ['joined', 'notJoined', 'timeout', 'error', 'unavailable'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export const FetchTaskStatusResponseSchema = z.object({
  taskId: z.string(),
  status: z.enum(MEMBERSHIP_STATUSES),
  state: z.enum(TASK_CLAIM_STATES),
  accountId: z.string().nullable(),
});
export type FetchTaskStatusResponse = z.infer<typeof FetchTaskStatusResponseSchema>;
