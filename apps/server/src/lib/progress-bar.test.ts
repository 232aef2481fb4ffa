import { describe, expect, it } from 'vitest';
import { progressBar } from './progress-bar.js';

describe('progress without a terminal', () => {
  it('writes a line at the first step, at each tenth and at the end when lines are asked for', async () => {
    const out: string[] = [];
    const progress = await progressBar(
      { out: (line) => out.push(line), err: () => {}, progressLines: true },
      'Importing',
      'rows',
    );
    for (const done of [0, 500, 550, 1000, 1500, 2999, 3000]) progress.update(done, 3000);
    progress.stop();
    expect(out).toEqual([
      'Importing: 500/3000 rows (16%)',
      'Importing: 1000/3000 rows (33%)',
      'Importing: 1500/3000 rows (50%)',
      'Importing: 2999/3000 rows (99%)',
      'Importing: 3000/3000 rows (100%)',
    ]);
  });

  it('writes nothing when neither a bar nor lines are asked for (tests, embedding)', async () => {
    const out: string[] = [];
    const progress = await progressBar({ out: (line) => out.push(line), err: () => {} }, 'Importing', 'rows');
    progress.update(10, 10);
    expect(out).toEqual([]);
  });
});
