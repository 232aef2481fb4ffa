import { CashbackEstimateRequestSchema, ExchangeDetailRequestSchema } from '@elex/contract';
import type { FastifyInstance } from 'fastify';
import { sendCachedAnswer } from '../../http/encoded-body.js';
import { requestLocale, success } from '../../http/envelope.js';
import { parsePayload } from '../../http/validation.js';
import {
  estimateCashbackAtPartners,
  getExchangeDetail,
  getExchangeDictionary,
  getExchangeIndexEnvelopeJson,
  signupLinkPolicy,
} from './exchanges.service.js';

/** The public catalog calls (issue 4). No token needed: visitors see all of it. */
export async function exchangesRoutes(app: FastifyInstance) {
  const signupLinks = signupLinkPolicy(app.deps.config.env);

  // spec: empty payload. The answer is served from the catalog cache, already serialized and, per
  // coding, compressed once (the compress plugin would run brotli on every request).
  app.post('/exchange/index', { compress: false }, async (request, reply) => {
    const body = await getExchangeIndexEnvelopeJson(app.deps, requestLocale(request));
    return sendCachedAnswer(request, reply, body, 'application/json; charset=utf-8');
  });

  // spec section 7: the one GET call, the shared resource file of the exchange dictionary.
  app.get('/user/config/res.json', async (request) =>
    success(request, await getExchangeDictionary(app.deps, signupLinks)),
  );

  app.post('/exchange/detail', async (request) => {
    const { platId } = parsePayload(ExchangeDetailRequestSchema, request.body);
    return success(request, await getExchangeDetail(app.deps, platId, requestLocale(request), signupLinks));
  });

  app.post('/exchange/estimate', async (request) => {
    const input = parsePayload(CashbackEstimateRequestSchema, request.body);
    return success(request, await estimateCashbackAtPartners(app.deps, input));
  });
}
