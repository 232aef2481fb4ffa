import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** What a browser downloads as text: worth compressing. Images other than SVG and fonts are not. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this the compressed file saves less than its headers cost (the server's threshold too). */
const THRESHOLD = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `<file>.br` (brotli at quality 11) and `<file>.gz` (gzip at level 9) beside every compressible
 * file of the build, where the server picks them by the browser's Accept-Encoding. Compressing at the
 * best settings once, here, is what lets the server send each byte without compressing per response
 * (issue 14). A coding that is not smaller than the file is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'elex-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const started = performance.now();
      const entries = await fs.readdir(outDir, { recursive: true, withFileTypes: true });
      const files = entries
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      let written = 0;
      await Promise.all(
        files.map(async (file) => {
          const bytes = await fs.readFile(file);
          if (bytes.length < THRESHOLD) return;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzip(bytes, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          for (const [suffix, compressed] of [
            ['.br', br],
            ['.gz', gz],
          ] as const) {
            if (compressed.length >= bytes.length) continue;
            await fs.writeFile(`${file}${suffix}`, compressed);
            written += 1;
          }
        }),
      );
      this.info(`precompressed ${written} files (.br, .gz) in ${Math.round(performance.now() - started)} ms`);
    },
  };
}
