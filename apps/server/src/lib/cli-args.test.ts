import { describe, expect, it } from 'vitest';
import { readCommandArgs } from './cli-args.js';

describe('readCommandArgs', () => {
  it('reads positionals and options in both spellings', () => {
    expect(readCommandArgs(['bitget', '--from', '2026-01-01', '--to=2026-02-01'], ['from', 'to'])).toEqual({
      positionals: ['bitget'],
      values: { from: '2026-01-01', to: '2026-02-01' },
    });
  });

  it('words the refusals for the operator', () => {
    expect(readCommandArgs(['bitget', '--since', 'x'], ['from'])).toBe('unknown option --since');
    expect(readCommandArgs(['bitget', '--from'], ['from'])).toBe('--from needs a value');
    expect(readCommandArgs(['--from', '--to', 'x'], ['from', 'to'])).toBe('--from needs a value');
  });
});
