import { ENDPOINTS } from '@elex/contract/endpoints';
import type { FastifyInstance } from 'fastify';
import { sendCachedAnswer } from '../../http/encoded-body.js';
import { serve } from '../../http/endpoint-route.js';
import { requestLocale, success } from '../../http/envelope.js';
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
  serve(app, ENDPOINTS.exchangeIndex, { compress: false }, async (request, _body, reply) => {
    const body = await getExchangeIndexEnvelopeJson(app.deps, requestLocale(request));
    return sendCachedAnswer(request, reply, body, 'application/json; charset=utf-8');
  });

  // spec section 7: the one GET call, the shared resource file of the exchange dictionary.
  serve(app, ENDPOINTS.userConfigResJson, async (request) =>
    success(request, await getExchangeDictionary(app.deps, signupLinks)),
  );

  serve(app, ENDPOINTS.exchangeDetail, async (request, { platId }) => {
    return success(request, await getExchangeDetail(app.deps, platId, requestLocale(request), signupLinks));
  });

  serve(app, ENDPOINTS.exchangeEstimate, async (request, input) => {
    return success(request, await estimateCashbackAtPartners(app.deps, input));
  });
}
