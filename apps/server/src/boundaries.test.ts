import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's boundary rules (.dependency-cruiser.cjs, run by `npm run lint`) on a small tree made
 * for the test: they catch a new import cycle, a query of another module's tables or repository, and
 * a module importing the app; and they let through what the layering allows (a service of another
 * module, a foreign key between tables, a row type, tests).
 */
const { forbidden } = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
};

let root: string;

const FILES: Record<string, string> = {
  'src/app.ts': "import { a } from './modules/a/a.service.js';\nexport const app = a;\n",
  'src/modules/a/a.tables.ts': "import { bTable } from '../b/b.tables.js';\nexport const aTable = bTable;\n",
  'src/modules/a/a.service.ts': [
    "import { b } from '../b/b.service.js';",
    "import type { BRow } from '../b/b.tables.js';",
    'export const a = b;',
    'export type ARow = BRow;',
  ].join('\n'),
  'src/modules/b/b.tables.ts': 'export const bTable = 1;\nexport type BRow = { id: number };\n',
  'src/modules/b/b.repository.ts': "import { bTable } from './b.tables.js';\nexport const rows = bTable;\n",
  'src/modules/b/b.service.ts': "import { rows } from './b.repository.js';\nexport const b = rows;\n",
  // What the rules must catch:
  'src/modules/c/c.service.ts': "import { bTable } from '../b/b.tables.js';\nexport const c = bTable;\n",
  'src/modules/d/d.service.ts': "import { rows } from '../b/b.repository.js';\nexport const d = rows;\n",
  'src/modules/e/first.ts': "import { second } from './second.js';\nexport const first = () => second;\n",
  'src/modules/e/second.ts': "import { first } from './first.js';\nexport const second = () => first;\n",
  'src/modules/f/f.service.ts': "import { app } from '../../app.js';\nexport const f = app;\n",
  // A read model joins several modules' tables, and takes nothing else of theirs.
  'src/read-models/joined.ts': [
    "import { bTable } from '../modules/b/b.tables.js';",
    "import { b } from '../modules/b/b.service.js';",
    'export const joined = [bTable, b];',
  ].join('\n'),
  'src/modules/h/h.service.ts':
    "import { joined } from '../../read-models/joined.js';\nexport const h = joined;\n",
  // Tests may reach anywhere.
  'src/modules/g/g.test.ts': "import { bTable } from '../b/b.tables.js';\nexport const g = bTable;\n",
};

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'elex-boundaries-'));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  fs.writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' }, include: ['src'] }),
  );
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the server’s module boundaries', () => {
  it('catch a cycle, a foreign table or repository, and a module importing the app; allow the rest', async () => {
    const answer = await cruise(['src'], {
      ruleSet: { forbidden },
      tsPreCompilationDeps: true,
      validate: true,
      baseDir: root,
    });
    const result = answer.output as ICruiseResult;
    const found = result.summary.violations
      .map((violation) => `${violation.rule.name}: ${violation.from} -> ${violation.to}`)
      .sort();
    expect(found).toEqual([
      'no-circular: src/modules/e/first.ts -> src/modules/e/second.ts',
      'no-foreign-repositories: src/modules/d/d.service.ts -> src/modules/b/b.repository.ts',
      'no-foreign-tables: src/modules/c/c.service.ts -> src/modules/b/b.tables.ts',
      'no-modules-into-app: src/modules/f/f.service.ts -> src/app.ts',
      'read-models-read-tables-only: src/read-models/joined.ts -> src/modules/b/b.service.ts',
    ]);
  });
});

describe('the read models (src/read-models)', () => {
  it('never write: no insert, update, delete or row lock in their queries', () => {
    const dir = path.join(import.meta.dirname, 'read-models');
    const writes =
      /\.(insert|update|delete)\(|\.for\(|\b(insert\s+into|delete\s+from|for\s+update)\b|\bupdate\s+\S+\s+set\b/i;
    const files = fs.readdirSync(dir).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(0);
    const writing = files.filter((file) => writes.test(fs.readFileSync(path.join(dir, file), 'utf8')));
    expect(writing).toEqual([]);
    // The pattern itself catches the shapes a write takes in this code base.
    for (const write of [
      'tx.insert(x)',
      'db.update(x)',
      '.for("update")',
      'sql`delete from x`',
      'sql`update x set y = 1`',
    ]) {
      expect(writes.test(write), write).toBe(true);
    }
  });
});
