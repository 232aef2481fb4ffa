import { normalizeEmail } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { databaseBeforeMigrationOnEither, runMigrationAgain } from '../../test/migrations-before.js';

/**
 * Migration 0046_email_canonical_form on the suite's engine (its SQL, punycode included, must do on
 * both what the contract's normalizeEmail does in the browser and on the server).
 */
const TAG = 'email_canonical_form';

const database = databaseBeforeMigrationOnEither(TAG);

/** [id, e-mail as stored before]: what the canonical form is for each is normalizeEmail's answer. */
const STORED: [number, string | null][] = [
  [1, 'dot@example.com.'],
  [2, 'idn@bücher.de'],
  [3, 'sharp@faß.de'],
  [4, 'greek@ελλάδα.gr'],
  [5, 'cyrillic@россия.рф'],
  [6, 'japanese@例え。テスト'],
  [7, 'wide@ｂücher.de.'],
  [8, 'mixed@sub.münchen.de'],
  [9, '"quoted"@example.com'],
  [10, 'plain@example.com'],
  // Left: a quoted local part that is no plain word.
  [11, '"a,b"@example.com'],
  // Left: two accounts of one mailbox, the canonical one and its dotted form...
  [12, 'twice@example.com'],
  [13, 'twice@example.com.'],
  // ...and two forms that both are not canonical.
  [14, 'both@bücher.de'],
  [15, 'both@xn--bcher-kva.de.'],
  [16, null],
  [17, 'long@hétérogénéité-sans-limites.example'],
];
const LEFT = new Map<number, { reason: string; sameMailboxAs: number[] }>([
  [11, { reason: 'quoted', sameMailboxAs: [] }],
  [13, { reason: 'sameMailbox', sameMailboxAs: [12] }],
  [14, { reason: 'sameMailbox', sameMailboxAs: [15] }],
  [15, { reason: 'sameMailbox', sameMailboxAs: [14] }],
]);

async function emailsOf(db: Database) {
  return rowsOf<{ id: string; email: string | null }>(
    await db.execute(sql`select id, email from users order by id`),
  ).map((row) => [Number(row.id), row.email]);
}

async function auditOf(db: Database) {
  return rowsOf<{ actor: string; action: string; target: string; before: unknown; after: unknown }>(
    await db.execute(sql`select actor, action, target, before, after from audit_log order by id`),
  );
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** The canonical form: normalizeEmail's, a quoted plain word unquoted (the schemas refuse quotes). */
const canonical = (email: string) => normalizeEmail(email).replace(/^"([^"]+)"@/, '$1@');

describe(`migration ${TAG} (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('writes each stored e-mail in the canonical form, leaves two accounts of one mailbox and odd quoted ones as they are with an audit entry each; a second run changes nothing', async () => {
    const db = await database.migrateBefore();
    for (const [id, email] of STORED) {
      await db.execute(sql`
        insert into users (id, email, user_code, invite_code, created_at)
        values (${id}, ${email}, ${`U${id}`}, ${`I${id}`}, '2026-01-01')`);
    }
    await database.migrateRest();

    const expected = STORED.map(([id, email]) => [
      id,
      email === null || LEFT.has(id) ? email : canonical(email),
    ]);
    expect(await emailsOf(db)).toEqual(expected);
    // What the contract makes of them, for the record (the SQL matched it above).
    expect(expected.slice(0, 9).map(([, email]) => email)).toEqual([
      'dot@example.com',
      'idn@xn--bcher-kva.de',
      'sharp@xn--fa-hia.de',
      'greek@xn--hxakic4aa.gr',
      'cyrillic@xn--h1alffa9f.xn--p1ai',
      'japanese@xn--r8jz45g.xn--zckzah',
      'wide@xn--bcher-kva.de',
      'mixed@sub.xn--mnchen-3ya.de',
      'quoted@example.com',
    ]);

    const audit = await auditOf(db);
    const changed = STORED.filter(
      ([id, email]) => email !== null && !LEFT.has(id) && canonical(email) !== email,
    );
    expect(audit).toEqual(
      [
        ...changed.map(([id, email]) => ({
          id,
          entry: {
            actor: 'migration:email_canonical_form',
            action: 'member.emailCanonical',
            target: `user:${id}`,
            before: { userId: id, domain: domainOf(email as string), quotedLocalPart: id === 9 },
            after: { userId: id, domain: domainOf(canonical(email as string)), quotedLocalPart: false },
          },
        })),
        ...[...LEFT].map(([id, after]) => ({
          id,
          entry: {
            actor: 'migration:email_canonical_form',
            action: 'member.emailLeft',
            target: `user:${id}`,
            before: { userId: id, domain: domainOf(STORED[id - 1]?.[1] as string) },
            after: { userId: id, ...after },
          },
        })),
      ]
        .sort((a, b) => a.id - b.id)
        .map(({ entry }) => entry),
    );

    await runMigrationAgain(db, TAG);
    expect(await emailsOf(db)).toEqual(expected);
    expect(await auditOf(db)).toEqual(audit);
  });
});
