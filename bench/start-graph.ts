import fs from 'node:fs';
import path from 'node:path';
import { init, parse } from 'es-module-lexer';

/**
 * What `node apps/server/dist/main.js` must read and compile before its first line runs: the built
 * files main.js reaches through static `import`/`export ... from` (transitively), not those behind an
 * `import()`. Deterministic (bytes of the build), so it compares across machines and loads, unlike a
 * start time. Dependencies left external (fastify, pg, ...) are listed by name, not counted.
 */
export interface StartGraph {
  files: Array<{ file: string; bytes: number }>;
  totalBytes: number;
  /** Built files reached only through `import()`: loaded on first use. */
  lazyFiles: Array<{ file: string; bytes: number }>;
  /** Packages main.js's static graph imports from node_modules. */
  externals: string[];
}

export async function startGraph(distDir: string, entry = 'main.js'): Promise<StartGraph> {
  await init;
  const staticFiles = new Set<string>();
  const dynamicTargets = new Set<string>();
  const externals = new Set<string>();
  const visit = (file: string) => {
    if (staticFiles.has(file)) return;
    staticFiles.add(file);
    const source = fs.readFileSync(path.join(distDir, file), 'utf8');
    const [imports] = parse(source, file);
    for (const entryImport of imports) {
      const specifier = entryImport.n;
      if (specifier === undefined) continue;
      const isStatic = entryImport.d === -1;
      if (!specifier.startsWith('.')) {
        if (isStatic) externals.add(specifier);
        continue;
      }
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      if (isStatic) visit(target);
      else if (entryImport.d >= 0) dynamicTargets.add(target);
    }
  };
  visit(entry);
  const sized = (file: string) => ({ file, bytes: fs.statSync(path.join(distDir, file)).size });
  const files = [...staticFiles].map(sized).sort((a, b) => b.bytes - a.bytes);
  // What the lazy entries reach beyond the start graph.
  const lazy = new Set<string>();
  const visitLazy = (file: string) => {
    if (staticFiles.has(file) || lazy.has(file)) return;
    lazy.add(file);
    const [imports] = parse(fs.readFileSync(path.join(distDir, file), 'utf8'), file);
    for (const lazyImport of imports) {
      if (lazyImport.n?.startsWith('.') && lazyImport.d === -1) {
        visitLazy(path.posix.normalize(path.posix.join(path.posix.dirname(file), lazyImport.n)));
      }
    }
  };
  for (const target of dynamicTargets) visitLazy(target);
  return {
    files,
    totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
    lazyFiles: [...lazy].map(sized).sort((a, b) => b.bytes - a.bytes),
    externals: [...externals].sort(),
  };
}
