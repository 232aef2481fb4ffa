import { describe, expect, it } from 'vitest';
import { takeOperatorFlag } from './operator-flag.js';

/** `--operator` may stand anywhere on the command line; the command's own arguments stay as given. */
describe('takeOperatorFlag', () => {
  it.each([
    [
      ['admin:grant', 'a@example.com', '--operator', 'ops@example.com'],
      'ops@example.com',
      ['admin:grant', 'a@example.com'],
    ],
    [
      ['--operator=12', 'withdrawals:approve', '7', '--tx', '0xab'],
      '12',
      ['withdrawals:approve', '7', '--tx', '0xab'],
    ],
    [
      ['withdrawals:reject', '7', '--reason', 'wrong address'],
      undefined,
      ['withdrawals:reject', '7', '--reason', 'wrong address'],
    ],
  ])('%j names %j and leaves %j', (argv, operator, rest) => {
    expect(takeOperatorFlag(argv)).toEqual({ operator, rest });
  });

  it.each([
    [['ledger:check', '--operator']],
    [['ledger:check', '--operator=']],
    [['sync', 'bitget', '--operator', '--from', '2026-01-01']],
  ])('refuses %j: the flag needs a value', (argv) => {
    expect(takeOperatorFlag(argv)).toEqual({
      error: '--operator needs a value: an operator’s e-mail or user id.',
    });
  });

  it('refuses two different operators', () => {
    expect(takeOperatorFlag(['housekeeping', '--operator', 'a@x.io', '--operator=b@x.io'])).toEqual({
      error: 'name one operator, not two.',
    });
  });
});
