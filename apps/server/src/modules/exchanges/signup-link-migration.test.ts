import { signupProblems } from '@elex/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../../test/migrations-before.js';

const TAG = 'signup_link_template';

const database = databaseBeforeMigration(TAG);

describe(`migration ${TAG}`, () => {
  it('turns each sign-up link that holds its code once into a {code} template, and keeps any other link', async () => {
    const db = await database.migrateBefore();
    const partners: Array<[number, string, string]> = [
      // The seed's link with the placeholder code, and the issue's case: a code set, the link left stale.
      [1, 'https://www.okx.com/join/ELEXCB', 'ELEXCB'],
      [2, 'https://www.bitget.com/referral/register?clacCode=ELEXCB', 'BGELEX01'],
      // A real code in its link; a code in a link twice (which one is the code is a guess).
      [3, 'https://www.kucoin.com/r/rf/KC77?src=kc77', 'KC77'],
      [4, 'https://x.example/r/AB?ref=AB', 'AB'],
    ];
    for (const [id, url, code] of partners) {
      await db.execute(sql`
        insert into exchanges (id, name, abbreviation, logo, position, score_tenths, cash_rate_bps,
          speed_up_cash_rate_bps, maker_fee_ppm, taker_fee_ppm, vip_rule, signup_url, referral_code,
          new_user_discount_percent, new_user_discount_days)
        values (${id}, ${`Ex${id}`}, ${`EX${id}`}, '/logos/ex.svg', ${id}, 90, 4000, 5000, 200, 500,
          'either', ${url}, ${code}, 20, 90)`);
    }

    await database.migrateRest();

    const rows = (
      await db.execute(sql`select id, signup_url_template, referral_code from exchanges order by id`)
    ).rows as Array<{ id: number; signup_url_template: string; referral_code: string }>;
    expect(rows.map((row) => [row.id, row.signup_url_template])).toEqual([
      [1, 'https://www.okx.com/join/{code}'],
      [2, 'https://www.bitget.com/referral/register?clacCode=ELEXCB'],
      [3, 'https://www.kucoin.com/r/rf/{code}?src=kc77'],
      [4, 'https://x.example/r/AB?ref=AB'],
    ]);
    // The kept links are reported as not ready until an operator writes their template.
    expect(
      rows.map((row) =>
        signupProblems({ referralCode: row.referral_code, signupUrlTemplate: row.signup_url_template }),
      ),
    ).toEqual([['placeholderCode'], ['missingTemplate'], [], ['missingTemplate']]);
  });
});
