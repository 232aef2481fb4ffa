import { describe, expect, it } from 'vitest';
import { streamCsv } from './csv.js';

const read = async (text: string) => {
  const items: unknown[] = [];
  for await (const item of streamCsv(Buffer.from(text), ['a', 'b'])) items.push(item);
  return items;
};

describe('streamCsv line numbers (issue 14: read without csv-parse per-record info)', () => {
  it('numbers each row by the line it ends on, across a BOM, CRLF, blank lines and quoted line breaks', async () => {
    expect(await read('\uFEFFA,b\r\n1,2\r\n\r\n"x\ny",3\n')).toEqual([
      { line: 2, values: { a: '1', b: '2' } },
      { line: 5, values: { a: 'x\ny', b: '3' } },
    ]);
    expect(await read('a,b\n4,"5\n\n6"\n7\n8,9\n')).toEqual([
      { line: 4, values: { a: '4', b: '5\n\n6' } },
      expect.objectContaining({ line: 5, field: 'row', key: 'importFieldCount' }),
      { line: 6, values: { a: '8', b: '9' } },
    ]);
    expect(await read('a,b\n"x\ny",3\n\n\n4,5\n')).toEqual([
      { line: 3, values: { a: 'x\ny', b: '3' } },
      { line: 6, values: { a: '4', b: '5' } },
    ]);
  });

  it('numbers the rows of a file read in many chunks as the file counts them', async () => {
    const lines = ['a,b'];
    const expected: { line: number; values: { a: string; b: string } }[] = [];
    let physical = 1;
    for (let n = 0; n < 30_000; n += 1) {
      if (n % 7 === 0) {
        lines.push('');
        physical += 1;
        continue;
      }
      lines.push(`u${n},"v\n${n}"`);
      physical += 2;
      expected.push({ line: physical, values: { a: `u${n}`, b: `v\n${n}` } });
    }
    expect(await read(`${lines.join('\n')}\n`)).toEqual(expected);
  });

  it('reports a broken quote at its line and stops there', async () => {
    const items = await read('a,b\n1,2\n3,"4\n5,6\n');
    expect(items.at(-1)).toEqual(
      expect.objectContaining({ line: 4, field: 'file', key: 'importUnreadable' }),
    );
  });
});
