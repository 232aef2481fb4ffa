import pg from 'pg';
import { statementName } from './statement-name.js';

/**
 * Statements the app runs often become named prepared statements on each pooled PostgreSQL connection
 * (issue 14). At a million rebate rows a member call's statements read a few index pages, and
 * PostgreSQL spends more on parsing and planning each one (up to 3 ms for a query on `rebates`, whose
 * nine indexes the planner weighs) than on running it: under load the calls were bounded by planning.
 * A named statement is parsed once per connection; PostgreSQL then plans it per call or, once a plan
 * that ignores the values costs no more than the custom ones, keeps that generic plan.
 *
 * Which statements: those with parameters (without them node-postgres uses the simple protocol, which
 * allows several commands in one text: migrations), seen HOT_AFTER times, and of at most MAX_TEXT
 * characters. The names are the text's digest, so the same text gets the same name on every connection.
 * At most MAX_NAMED texts are named per process: a text made for one input's shape (a list of UIDs of
 * some length) must not grow every connection's plan cache without bound; past the cap, texts run
 * unnamed as before.
 */
const HOT_AFTER = 2;
const MAX_TEXT = 16_384;
const MAX_NAMED = 400;
/** Texts counted while not yet hot; the counts start over past this many. */
const MAX_COUNTED = 4_096;

const names = new Map<string, string>();
const counts = new Map<string, number>();

/**
 * Forgets every text counted and named, for the tests of the naming itself: the server test files of a
 * worker share this module, and the files before may have reached MAX_NAMED.
 */
export function forgetStatementNames(): void {
  names.clear();
  counts.clear();
}

/** The statement name for this text, or undefined to run it unnamed. Exported for its test. */
export function statementNameOf(text: string): string | undefined {
  const known = names.get(text);
  if (known !== undefined) return known;
  if (text.length > MAX_TEXT || names.size >= MAX_NAMED) return undefined;
  const times = (counts.get(text) ?? 0) + 1;
  if (times < HOT_AFTER) {
    if (counts.size >= MAX_COUNTED) counts.clear();
    counts.set(text, times);
    return undefined;
  }
  counts.delete(text);
  const name = statementName('elex', text);
  names.set(text, name);
  return name;
}

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown; submit?: unknown };

/** pg's Client, naming hot parameterized statements (pg.Pool's `Client` option). */
export class NamingClient extends pg.Client {
  // pg's query has many overloads; this one forwards every form unchanged but the named one.
  override query(...args: unknown[]): never {
    const [config, values] = args;
    const query = (super.query as (...forwarded: unknown[]) => never).bind(this);
    if (config === null || typeof config !== 'object') {
      if (typeof config === 'string' && Array.isArray(values) && values.length > 0) {
        const name = statementNameOf(config);
        if (name) return query({ name, text: config }, ...args.slice(1));
      }
      return query(...args);
    }
    const given = config as QueryConfig;
    if (typeof given.submit === 'function' || given.name || typeof given.text !== 'string')
      return query(...args);
    const params = Array.isArray(values) ? values : given.values;
    if (!Array.isArray(params) || params.length === 0) return query(...args);
    const name = statementNameOf(given.text);
    return name ? query({ ...given, name }, ...args.slice(1)) : query(...args);
  }
}
