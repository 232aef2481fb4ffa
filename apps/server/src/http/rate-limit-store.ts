import { createRequire } from 'node:module';
import type { FastifyRateLimitOptions, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Counter = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counter) => void;
interface Store {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read?(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): Store;
}
type StoreOptions = FastifyRateLimitOptions & { continueExceeding?: boolean; exponentialBackoff?: boolean };

// The plugin's own stores (CommonJS files without types of their own): the same counting rules on
// Redis and in process.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  redis: Redis,
  key: string,
) => Store;
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean | undefined,
  exponentialBackoff: boolean | undefined,
  cache?: number,
) => Store;

/**
 * Counts on Redis (shared by every instance) and, whenever Redis does not answer, in this process
 * instead: a money platform's limits on codes, logins and withdrawals must never switch off because a
 * cache is down (issue 13). Each instance then limits on its own, at worst the limit times the number
 * of instances, until Redis answers again.
 */
class FallbackStore implements Store {
  constructor(
    private readonly shared: Store,
    private readonly local: Store,
    private readonly onFallback: (error: Error) => void,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) return callback(null, result);
        this.onFallback(error);
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  read(key: string, callback: Callback, timeWindow: number, max: number): void {
    const local = (error: Error) => {
      this.onFallback(error);
      this.local.read?.(key, callback, timeWindow, max);
    };
    this.shared.read?.(
      key,
      (error, result) => (error ? local(error) : callback(null, result)),
      timeWindow,
      max,
    );
  }

  child(routeOptions: unknown): FallbackStore {
    return new FallbackStore(
      this.shared.child(routeOptions),
      this.local.child(routeOptions),
      this.onFallback,
    );
  }
}

/** The `store` option of @fastify/rate-limit: Redis first, this process's counters when it fails. */
export function redisWithLocalFallback(
  redis: Redis,
  nameSpace: string,
  onFallback: (error: Error) => void,
): FastifyRateLimitStoreCtor {
  class RedisFirst extends FallbackStore {
    constructor(options: StoreOptions) {
      super(
        new RedisStore(options.continueExceeding, options.exponentialBackoff, redis, nameSpace),
        new LocalStore(options.continueExceeding, options.exponentialBackoff),
        onFallback,
      );
    }
  }
  // The plugin's declared store type is narrower than what it calls (child's argument): ours is wider.
  return RedisFirst as unknown as FastifyRateLimitStoreCtor;
}
