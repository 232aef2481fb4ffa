import os from 'node:os';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { serverBuildOptions } from '../scripts/build-options.mjs';

/**
 * What `node dist/main.js` loads before its first line runs (docs/decisions.md, "Cold start"): the
 * server build (scripts/build-options.mjs), made in memory, followed from main.js through static
 * imports only. viem (its clients, transports, signing, and the curves and ABI code beneath) waits for
 * the first payout behind an `import()`; one value import of viem's index anywhere on the start path
 * would bring it all back, as esbuild's code splitting shares the lazy chunk's modules with main.
 * Packages left external that the start does not need (node-postgres on PGlite, the logo check's XML
 * parser, the CLI's progress bars, CSV reading and writing) are imported with `import()` where used.
 */

const HEAVY_ON_FIRST_USE = /node_modules\/(viem|ox|abitype|@noble\/curves|@scure)\//;
/** External packages a start does not need: each is loaded by an `import()` where first used. */
const EXTERNAL_ON_FIRST_USE = ['pg', 'saxes', 'cli-progress', 'csv-parse', 'csv-stringify'];

const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

let built: Promise<Metafile['outputs']> | undefined;
/** The build's outputs, made once for the file's tests. */
const serverOutputs = () => {
  built ??= buildServerOutputs();
  return built;
};

async function buildServerOutputs(): Promise<Metafile['outputs']> {
  const outdir = path.join(os.tmpdir(), 'elex-start-graph');
  const result = await build({
    ...serverBuildOptions(outdir),
    write: false,
    metafile: true,
    sourcemap: false,
  });
  // Keyed by the output's path relative to the working directory, as the imports name them.
  return result.metafile.outputs;
}

function reachable(outputs: Metafile['outputs'], entry: string, kinds: ReadonlySet<string>): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? []) {
      if (!imported.external && kinds.has(imported.kind)) visit(imported.path);
    }
  };
  visit(entry);
  return seen;
}

/** The entry's output file for a source entry point. */
function entryOf(outputs: Metafile['outputs'], source: string): string {
  const found = Object.entries(outputs).find(([, output]) => output.entryPoint === source);
  if (!found) throw new Error(`no output for ${source}`);
  return found[0];
}

/** The packages the given outputs import, by how (static or `import()`). */
function externalPackages(outputs: Metafile['outputs'], files: Iterable<string>, kind: string): Set<string> {
  const packages = new Set<string>();
  for (const file of files) {
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.external && imported.kind === kind) packages.add(packageOf(imported.path));
    }
  }
  return packages;
}

describe('the server start graph (the build, no timing)', () => {
  it('imports pg, saxes, cli-progress, csv-parse and csv-stringify only with import(), on first use', async () => {
    const outputs = await serverOutputs();
    const main = entryOf(outputs, 'src/main.ts');
    const atStart = externalPackages(
      outputs,
      reachable(outputs, main, new Set(['import-statement'])),
      'import-statement',
    );
    expect(EXTERNAL_ON_FIRST_USE.filter((name) => atStart.has(name))).toEqual([]);
    // Still used: each is imported by a chunk main.js can reach through import().
    const everything = reachable(outputs, main, new Set(['import-statement', 'dynamic-import']));
    const onFirstUse = externalPackages(outputs, everything, 'dynamic-import');
    expect(EXTERNAL_ON_FIRST_USE.filter((name) => !onFirstUse.has(name))).toEqual([]);
  });

  it("loads zod's English messages only: no value import of zod's `z` namespace object", async () => {
    // `import { z } from 'zod'` (a value import) keeps every export of the namespace, 60 locales and
    // the JSON Schema converters among them: 0.55 MB more for the start to load than `import * as z`,
    // whose property reads esbuild resolves one by one.
    const outputs = await serverOutputs();
    const atStart = reachable(outputs, entryOf(outputs, 'src/main.ts'), new Set(['import-statement']));
    const zodAtStart = [...atStart].flatMap((file) =>
      Object.keys(outputs[file]?.inputs ?? {}).filter((input) => input.includes('node_modules/zod/')),
    );
    expect(zodAtStart.length).toBeGreaterThan(0);
    expect(zodAtStart.filter((input) => /\/locales\/(?!en\.js$)/.test(input))).toEqual([]);
  });

  it('loads no viem at start; a payout loads it through payouts.chain-client.ts', async () => {
    const outputs = await serverOutputs();
    const atStart = reachable(outputs, entryOf(outputs, 'src/main.ts'), new Set(['import-statement']));
    const heavyAtStart = [...atStart].flatMap((file) =>
      Object.keys(outputs[file]?.inputs ?? {}).filter((input) => HEAVY_ON_FIRST_USE.test(input)),
    );
    expect(heavyAtStart).toEqual([]);

    // The chain client is an entry of its own, imported with import() only, and it does bring viem.
    const client = entryOf(outputs, 'src/modules/payouts/payouts.chain-client.ts');
    expect(atStart.has(client)).toBe(false);
    const withClient = reachable(outputs, client, new Set(['import-statement']));
    const viemThere = [...withClient].some((file) =>
      Object.keys(outputs[file]?.inputs ?? {}).some((input) => input.includes('node_modules/viem/')),
    );
    expect(viemThere).toBe(true);
    const everything = reachable(
      outputs,
      entryOf(outputs, 'src/main.ts'),
      new Set(['import-statement', 'dynamic-import']),
    );
    expect(everything.has(client)).toBe(true);
  });
});
