import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import type { MemberAnswers } from './db/member-answers.js';
import type { ExchangeAdapter } from './integrations/exchanges/types.js';
import type { Clock } from './lib/clock.js';

/**
 * What every module may use; built once by main (app.ts) or by a test. Its own file, importing
 * nothing of the modules, so a module that takes the dependencies does not import the app that
 * registers every module's routes (which made each module part of one import cycle).
 */
export interface AppDeps {
  config: Config;
  db: Database;
  databaseKind: DatabaseHandle['kind'];
  clock: Clock;
  /**
   * Exchange affiliate APIs by lower-case exchange name ('bitget' ...): binding asks one whether a
   * UID not yet in the roster was referred by us. Absent or missing an exchange: the roster decides.
   */
  exchangeAdapters?: Map<string, ExchangeAdapter>;
  /**
   * Sessions and myInfo answers kept in this process, evicted by the database's notifications. Absent
   * (operator commands, scripts, MEMBER_CACHE=off): every call reads the database.
   */
  memberAnswers?: MemberAnswers;
}
