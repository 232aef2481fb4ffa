import fs from 'node:fs';
import path from 'node:path';

/**
 * A test file that replaces a module (`vi.mock`, `vi.doMock`) or an environment variable
 * (`vi.stubEnv`) needs a module graph of its own: in a graph shared with the files before it, an
 * earlier file has already loaded the real module, and a module read the variable when it loaded
 * (docs/decisions.md, "Test files share their modules"). Globals and fake timers a test stubs are
 * undone after each test by the projects' setup files, so they need no graph of their own.
 */
const REPLACES_A_MODULE = /\bvi\.(mock|doMock|stubEnv)\(/;
const TEST_FILE = /\.test\.tsx?$/;

/**
 * The test files under `dirs` of the project at `root` (paths relative to it, as Vitest's include and
 * exclude take them), split into those that may share one module graph per worker and those that need
 * their own. Read from the files themselves, so a new file that mocks a module is isolated unasked.
 */
export function testFilesByIsolation(root: string, dirs: string[]): { shared: string[]; isolated: string[] } {
  const shared: string[] = [];
  const isolated: string[] = [];
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })) {
      if (!TEST_FILE.test(entry) || entry.includes('node_modules')) continue;
      const file = path.posix.join(dir, entry.split(path.sep).join('/'));
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      (REPLACES_A_MODULE.test(text) ? isolated : shared).push(file);
    }
  }
  return { shared, isolated };
}
