import type { Plugin } from 'vite';

/** What the guard needs of a Rollup output chunk. */
export interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

export interface FirstPaintRule {
  /** The home page's source module: in the entry chunk (issue 14) or in a lazy chunk of its own. */
  homeModule: RegExp;
  /** Modules that must not be on that first paint, each with the reason a failure names. */
  forbidden: { pattern: RegExp; why: string }[];
}

const FIRST_PAINT_RULE: FirstPaintRule = {
  homeModule: /\/src\/features\/home\/home-page\.tsx$/,
  forbidden: [
    {
      pattern: /\/node_modules\/zod\//,
      why: 'zod belongs to the pages with forms (import its types only, or load it lazily)',
    },
    {
      pattern: /\/src\/locales\/(?!en\.json$)[^/]+\.json$/,
      why: 'only the default language (en) may ship with the first paint; the others load on demand',
    },
    {
      pattern: /\/src\/locales\/[^/]+\.json\?/,
      why: "a language's whole catalog loads after the first paint (shared/i18n/i18n.ts)",
    },
    {
      pattern: /\/node_modules\/(i18next|react-i18next)\//,
      why: 'i18next loads after the first paint; the shell and the home use shared/i18n/use-translation',
    },
    {
      pattern: /\/node_modules\/@tanstack\//,
      why: 'TanStack Query loads after the first paint, with the pages and sections that ask for data (shared/queries/query-scope.tsx)',
    },
    {
      pattern: /\/node_modules\/(embla-carousel[^/]*|@radix-ui\/react-tabs)\//,
      why: "the home's sliders and tabs show with the exchange list, after the first paint (features/home/exchange-showcase.tsx)",
    },
  ],
};

/** The chunks a browser loads for `/` before it can paint: the entry's and the home route's, with what they import. */
function firstPaintChunks(chunks: ChunkInfo[], rule: FirstPaintRule = FIRST_PAINT_RULE): ChunkInfo[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const found = new Map<string, ChunkInfo>();
  const visit = (chunk: ChunkInfo | undefined) => {
    if (!chunk || found.has(chunk.fileName)) return;
    found.set(chunk.fileName, chunk);
    for (const imported of chunk.imports) visit(byName.get(imported));
  };
  for (const chunk of chunks) {
    if (chunk.isEntry || (chunk.facadeModuleId && rule.homeModule.test(chunk.facadeModuleId))) visit(chunk);
  }
  return [...found.values()];
}

/** One line per forbidden module on the first paint; empty when the home route is clean. */
export function firstPaintViolations(chunks: ChunkInfo[], rule: FirstPaintRule = FIRST_PAINT_RULE): string[] {
  const initial = firstPaintChunks(chunks, rule);
  if (!initial.some((chunk) => chunk.moduleIds.some((id) => rule.homeModule.test(id)))) {
    return [`no first-paint chunk holds ${rule.homeModule}: the guard would check nothing`];
  }
  const violations: string[] = [];
  for (const chunk of initial) {
    for (const id of chunk.moduleIds) {
      const broken = rule.forbidden.find(({ pattern }) => pattern.test(id));
      if (broken) violations.push(`${chunk.fileName} carries ${id}: ${broken.why}`);
    }
  }
  return violations;
}

/**
 * Fails the production build when the first visit to `/` would load zod, another language's strings
 * or the home's carousel and tabs libraries (issue 14: the home route's first download stays small).
 * Also writes `.vite/chunk-modules.json` (each chunk's source modules) for the bench to report what
 * the first paint carries.
 */
export function firstPaintGuard(rule: FirstPaintRule = FIRST_PAINT_RULE): Plugin {
  return {
    name: 'elex-first-paint-guard',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: ChunkInfo[] = [];
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.push({
          fileName: output.fileName,
          isEntry: output.isEntry,
          facadeModuleId: output.facadeModuleId,
          imports: output.imports,
          moduleIds: Object.keys(output.modules),
        });
      }
      const violations = firstPaintViolations(chunks, rule);
      if (violations.length > 0) {
        this.error(`The home route's first paint carries what it must not:\n  ${violations.join('\n  ')}`);
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/chunk-modules.json',
        source: JSON.stringify(Object.fromEntries(chunks.map((chunk) => [chunk.fileName, chunk.moduleIds]))),
      });
    },
  };
}
