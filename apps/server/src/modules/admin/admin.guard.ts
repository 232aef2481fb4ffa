import { type Operator, State } from '@elex/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/app-error.js';
import { requireMember } from '../auth/auth.guard.js';
import { findOperator } from './operators.service.js';

const resolved = new WeakMap<FastifyRequest, Promise<Operator>>();

/**
 * The operator calling, checked on the server for every console call: no live session answers -5000
 * (requireMember), a member without the role 1003 'forbidden'. Resolved once per request.
 */
export function requireOperator(request: FastifyRequest): Promise<Operator> {
  let operator = resolved.get(request);
  if (!operator) {
    operator = (async () => {
      const member = await requireMember(request);
      const found = await findOperator(request.server.deps.db, member.userId);
      if (!found) throw new AppError(State.Forbidden, 'forbidden');
      return found;
    })();
    resolved.set(request, operator);
  }
  return operator;
}

/** The guard of calls the endpoint table marks `operator` (wired by the app; `serve()` runs it before the body is read). */
export async function operatorOnly(request: FastifyRequest): Promise<void> {
  await requireOperator(request);
}

/** Who acts, for the audit log, and the request id that ties the entry to the logs. */
export async function operatorContext(
  request: FastifyRequest,
): Promise<{ actor: { userId: number; label: string }; requestId: string }> {
  const operator = await requireOperator(request);
  return { actor: { userId: operator.userId, label: operator.email }, requestId: request.id };
}
