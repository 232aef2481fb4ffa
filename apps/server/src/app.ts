import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { MemberAnswers } from './db/member-answers.js';
import type { AppDeps } from './deps.js';
import { registerErrorHandler } from './http/error-handler.js';
import { HotAnswers } from './http/hot-answers.js';
import { requestSerializer } from './http/log-serializers.js';
import { registerOpenApi } from './http/openapi.js';
import { redisWithLocalFallback } from './http/rate-limit-store.js';
import { requestLogger } from './http/request-logger.js';
import { lazySchemaCompilers } from './http/schema-compilers.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerStaticSite } from './http/static-site.js';
import type { ExchangeAdapter } from './integrations/exchanges/types.js';
import { type Clock, systemClock } from './lib/clock.js';
import { operatorOnly } from './modules/admin/admin.guard.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { mediaRoutes } from './modules/admin/media.routes.js';
import { analyticsRoutes } from './modules/analytics/analytics.routes.js';
import { memberOnly } from './modules/auth/auth.guard.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { bindingsRoutes } from './modules/bindings/bindings.routes.js';
import { cashbackRoutes } from './modules/cashback/cashback.routes.js';
import { correctionsAdminRoutes, correctionsRoutes } from './modules/corrections/corrections.routes.js';
import { exchangesRoutes } from './modules/exchanges/exchanges.routes.js';
import { loadedExchangeIndexEnvelopeJson } from './modules/exchanges/exchanges.service.js';
import { exportDownloadRoutes } from './modules/exports/exports.routes.js';
import { ClockSkewWatch } from './modules/health/clock-skew.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { invitesRoutes } from './modules/invites/invites.routes.js';
import { devMailboxRoutes } from './modules/mail/dev-mailbox.routes.js';
import { pointsRoutes } from './modules/points/points.routes.js';
import { pointsHistoryRoutes } from './modules/points/points-history.routes.js';
import { supportAdminRoutes, supportRoutes } from './modules/support/support.routes.js';
import { tasksRoutes } from './modules/tasks/tasks.routes.js';
import { withdrawalsRoutes } from './modules/withdrawals/withdrawals.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** Every route as registered (method and full path): tests walk it, e.g. every /elex/admin call. */
    routeTable: ReadonlyArray<{ method: string; url: string }>;
    /** This instance's clock against the database's: main starts it, /healthz reports its last reading. */
    clockSkew: ClockSkewWatch;
  }
}

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  exchangeAdapters?: Map<string, ExchangeAdapter>;
  /** Tests pass false to keep output quiet. */
  logger?: boolean;
  /** Where log lines go instead of stdout: a test reads it to see what an operator would see. */
  logStream?: { write(line: string): void };
  /**
   * The hottest cached answers sent before Fastify's router (http/hot-answers.ts). On in production
   * only: elsewhere every answer goes through the route, whose answer check runs outside production.
   */
  hotAnswers?: boolean;
}

/** Builds the whole app without listening (fastify/demo's habit): main and tests both call this. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // The access log's URL without an export link's one-time token.
            serializers: { req: requestSerializer },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    // Off with the logger: Fastify's own path then makes no per-request logger at all.
    ...(options.logger === false ? {} : { childLoggerFactory: requestLogger }),
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    schemaController: { compilersFactory: lazySchemaCompilers },
  });
  const memberAnswers = config.memberCache.enabled
    ? await MemberAnswers.start(database, { ...config.memberCache, log: app.log })
    : undefined;
  if (memberAnswers) app.addHook('onClose', () => memberAnswers.close());
  app.decorate('deps', {
    config,
    db: database.db,
    databaseKind: database.kind,
    clock: options.clock ?? systemClock,
    ...(options.exchangeAdapters ? { exchangeAdapters: options.exchangeAdapters } : {}),
    ...(memberAnswers ? { memberAnswers } : {}),
  });

  // Started by main (tests measure when they mean to: their clocks are set by hand, far from the database's).
  const clockSkew = new ClockSkewWatch(app.deps, app.log);
  app.decorate('clockSkew', clockSkew);
  app.addHook('onClose', () => clockSkew.stop());

  app.decorate('endpointGuards', { member: memberOnly, operator: operatorOnly });

  const routeTable: Array<{ method: string; url: string }> = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });

  registerSecurityHeaders(app, { hsts: config.env === 'production' });
  // spec section 7: a call without a content type is form-encoded.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  await app.register(fastifyCompress, { threshold: 1024 });

  registerErrorHandler(app);
  await registerRateLimit(app, config);
  await app.register(healthRoutes);
  await registerOpenApi(app);
  await app.register(analyticsRoutes, { prefix: '/elex' });
  await app.register(authRoutes, { prefix: '/elex' });
  await app.register(exchangesRoutes, { prefix: '/elex' });
  await app.register(pointsRoutes, { prefix: '/elex' });
  await app.register(pointsHistoryRoutes, { prefix: '/elex' });
  await app.register(tasksRoutes, { prefix: '/elex' });
  await app.register(invitesRoutes, { prefix: '/elex' });
  await app.register(bindingsRoutes, { prefix: '/elex' });
  await app.register(cashbackRoutes, { prefix: '/elex' });
  await app.register(adminRoutes, { prefix: '/elex/admin' });
  // Outside adminRoutes: a browser download carries a one-time link, not the session header.
  await app.register(exportDownloadRoutes, { prefix: '/elex/admin/exports' });
  await app.register(supportAdminRoutes, { prefix: '/elex/admin/support' });
  await app.register(correctionsAdminRoutes, { prefix: '/elex/admin/corrections' });
  await app.register(correctionsRoutes, { prefix: '/elex' });
  await app.register(supportRoutes, { prefix: '/elex/support' });
  await app.register(mediaRoutes);
  await app.register(withdrawalsRoutes, { prefix: '/elex' });
  // The development mailbox shows codes: it must not exist in production.
  if (config.env !== 'production') await app.register(devMailboxRoutes);
  const page = await registerStaticSite(app, config.webDist);
  if (options.hotAnswers ?? config.env === 'production') {
    const hot = new HotAnswers();
    // Fastify's own request listener, wrapped: a hot answer, or Fastify's handler untouched.
    const [fastifyHandler] = app.server.listeners('request') as Array<Parameters<HotAnswers['wrap']>[0]>;
    if (fastifyHandler) {
      app.server.removeListener('request', fastifyHandler);
      app.server.on('request', hot.wrap(fastifyHandler));
      app.addHook('preClose', (done) => {
        hot.close();
        done();
      });
      hot.enable({
        exchangeIndex: (locale) => loadedExchangeIndexEnvelopeJson(app.deps, locale),
        page,
        hsts: config.env === 'production',
        trustProxy: Boolean(config.trustProxy),
        log: options.logger === false ? undefined : app.log,
      });
    }
  }
  return app;
}

/**
 * Rate limits are opt-in per route (`config.rateLimit`). Counters live in memory, or in Redis when
 * REDIS_URL is set so several instances share them (architecture: no state one instance would need
 * lives in another's memory). A refusal throws a 429 that the error handler turns into the envelope.
 */
async function registerRateLimit(app: FastifyInstance, config: Config) {
  // Loaded only when configured: ioredis took a twentieth of a start that does not use it.
  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, {
        connectTimeout: 2_000,
        maxRetriesPerRequest: 1,
        lazyConnect: false,
        // While Redis is away a command fails at once (and this process counts instead) rather than
        // waiting in a queue for the next reconnection: a login must not wait seconds for a cache.
        enableOfflineQueue: false,
      })
    : undefined;
  if (redis) {
    // Without a listener ioredis reports a lost connection on stderr; the log is where it belongs.
    redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate-limit store (Redis) unavailable'));
    // The first requests count on Redis when it answers: wait for it (or its first failure) at start.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 2_000);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      redis.once('ready', done);
      redis.once('error', done);
    });
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  let warned = 0;
  await app.register(fastifyRateLimit, {
    global: false,
    // Redis down must neither take logins down nor switch the limits off: each instance counts on
    // its own meanwhile (docs/decisions.md, "Rate limits when Redis is down").
    ...(redis
      ? {
          store: redisWithLocalFallback(redis, 'elex-rate-limit-', (error) => {
            // Once a minute at most: every limited request would log it.
            if (Date.now() - warned < 60_000) return;
            warned = Date.now();
            app.log.warn({ err: error }, 'rate limits counted in this process: Redis does not answer');
          }),
        }
      : {}),
    skipOnError: false,
  });
}
