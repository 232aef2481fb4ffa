import { State, translate } from '@elex/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { isInputDataException } from '../db/pg-errors.js';
import { AppError } from './app-error.js';
import { requestLocale, sendEnvelope } from './envelope.js';
import { ValidationError } from './validation.js';

/**
 * The one error path. Refusals answer HTTP 200 with their state; a request Fastify could not read
 * (bad JSON, too large, wrong content type) answers its 4xx with a validation state; anything else is
 * logged with the request id and answers HTTP 500 with a generic message, never a stack or SQL.
 */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const locale = requestLocale(request);
    if (error instanceof ValidationError) {
      return sendEnvelope(reply, 200, { state: error.state, message: error.render(locale), content: null });
    }
    if (error instanceof AppError) {
      return sendEnvelope(reply, 200, {
        state: error.state,
        message: translate(locale, error.messageKey, error.values),
        content: error.content,
      });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 429) {
      return sendEnvelope(reply, 429, {
        state: State.TooManyRequests,
        message: translate(locale, 'tooManyRequests'),
        content: null,
      });
    }
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'unreadable request');
      return sendEnvelope(reply, status, {
        state: State.ValidationFailed,
        message: translate(locale, 'invalidField', {
          field: 'body',
          reason: translate(locale, 'invalidValue'),
        }),
        content: null,
      });
    }
    if (isInputDataException(error)) {
      // A value no schema caught that the database refused: the caller's input, said as such; logged
      // so the schema that let it through gets its rule.
      request.log.warn({ err: error }, 'a value the database refused');
      return sendEnvelope(reply, 200, {
        state: State.ValidationFailed,
        message: translate(locale, 'invalidField', {
          field: 'body',
          reason: translate(locale, 'invalidValue'),
        }),
        content: null,
      });
    }
    request.log.error({ err: error }, 'unexpected fault');
    return sendEnvelope(reply, 500, {
      state: State.ServerError,
      message: translate(locale, 'error'),
      content: null,
    });
  });
}
