import type { HtmlTagDescriptor, Plugin } from 'vite';

const HOME_MODULE = /\/src\/features\/home\/home-page\.tsx$/;

/** What the plugin needs of a Rollup output chunk. */
export interface PreloadChunk {
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  css: string[];
}

/**
 * The home route's chunk, the chunks it imports and its style sheets, as hints in index.html: the
 * browser fetches them beside the main chunk instead of after it has run (issue 14: the largest paint
 * of `/`, the home's intro, waited for that round trip). The main chunk's own imports are hinted by
 * Vite already. Every route gets the hints: the home is the first page of nearly every visit, and the
 * few KiB are fetched at a lower priority than the main chunk.
 */
export function homePreloadTags(chunks: PreloadChunk[], base = '/'): HtmlTagDescriptor[] {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const home = chunks.find((chunk) => chunk.facadeModuleId && HOME_MODULE.test(chunk.facadeModuleId));
  if (!home) throw new Error(`no chunk is built from ${HOME_MODULE}: nothing to preload for the home`);
  const scripts = new Set<string>();
  const sheets = new Set<string>();
  const visit = (chunk: PreloadChunk | undefined) => {
    if (!chunk || chunk.isEntry || scripts.has(chunk.fileName)) return;
    scripts.add(chunk.fileName);
    for (const sheet of chunk.css) sheets.add(sheet);
    for (const imported of chunk.imports) visit(byName.get(imported));
  };
  visit(home);
  return [
    ...[...scripts].map(
      (file): HtmlTagDescriptor => ({
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: true, href: `${base}${file}` },
        injectTo: 'head',
      }),
    ),
    // Not a style sheet link, which would hold every route's first paint: Vite adds that link when the
    // home's chunk loads, and finds the file fetched.
    ...[...sheets].map(
      (file): HtmlTagDescriptor => ({
        tag: 'link',
        attrs: { rel: 'preload', as: 'style', crossorigin: true, href: `${base}${file}` },
        injectTo: 'head',
      }),
    ),
  ];
}

export function preloadHome(): Plugin {
  let base = '/';
  return {
    name: 'elex-preload-home',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        if (!context.bundle) return [];
        const chunks: PreloadChunk[] = [];
        for (const output of Object.values(context.bundle)) {
          if (output.type !== 'chunk') continue;
          chunks.push({
            fileName: output.fileName,
            isEntry: output.isEntry,
            facadeModuleId: output.facadeModuleId,
            imports: output.imports,
            css: [...(output.viteMetadata?.importedCss ?? [])],
          });
        }
        return homePreloadTags(chunks, base);
      },
    },
  };
}
