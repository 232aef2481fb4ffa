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
  loadedExchangeIndexEnvelopeJson,
  signupLinkPolicy,
} from './exchanges.service.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The public catalog calls (issue 4). No token needed: visitors see all of it. */
export async function exchangesRoutes(app: FastifyInstance) {
  const signupLinks = signupLinkPolicy(app.deps.config.env);

  // spec: empty payload. The answer is served from the catalog cache, already serialized and, per
  // coding, compressed once (the compress plugin would run brotli on every request); with the catalog
  // loaded, in the same turn of the event loop (no promise to wait on).
  serve(app, ENDPOINTS.exchangeIndex, { compress: false }, (request, _body, reply) => {
    const locale = requestLocale(request);
    const loaded = loadedExchangeIndexEnvelopeJson(app.deps, locale);
    if (loaded) return sendCachedAnswer(request, reply, loaded, JSON_TYPE);
    return getExchangeIndexEnvelopeJson(app.deps, locale).then((body) =>
      sendCachedAnswer(request, reply, body, JSON_TYPE),
    );
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
