import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface BundleFile {
  file: string;
  bytes: number;
  gzipBytes: number;
  why: string;
}

export interface BundleReport {
  files: BundleFile[];
  gzipTotal: number;
  rawTotal: number;
  homeChunkFound: boolean | 'no-manifest';
  /** Files on the first paint that carry zod, or another language's strings (from the build's module map). */
  zod: string[];
  otherLanguages: string[];
}

interface ManifestChunk {
  file: string;
  src?: string;
  imports?: string[];
  isEntry?: boolean;
  isDynamicEntry?: boolean;
}

/** Values of one attribute in every tag of a kind, e.g. the `src` of each `<script>`. */
function tagsOf(html: string, tag: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  for (const [, attributes = ''] of html.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'gi'))) {
    const parsed: Record<string, string> = {};
    for (const [, name = '', , value = ''] of attributes.matchAll(/([\w-]+)(\s*=\s*"([^"]*)")?/g)) {
      parsed[name.toLowerCase()] = value;
    }
    found.push(parsed);
  }
  return found;
}

/**
 * The JavaScript a visitor's browser fetches to render `/`: the scripts and module preloads named in
 * dist/index.html (the home page is built into the entry chunk), plus, for a build whose home page is a
 * lazy chunk (before issue 14's last step; when Vite wrote a manifest), that chunk and the chunks it
 * imports statically that index.html did not already bring, and, when the default language's strings
 * are a chunk of their own rather than part of the entry, that chunk (a first visit shows English).
 * Each file gzipped on its own (zlib level 6, what a server's on-the-fly compression typically uses).
 */
export function measureHomeBundle(distDir: string): BundleReport {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const wanted = new Map<string, string>();
  for (const script of tagsOf(html, 'script')) {
    if (script.src) wanted.set(script.src, 'index.html <script>');
  }
  for (const link of tagsOf(html, 'link')) {
    if (link.rel === 'modulepreload' && link.href) wanted.set(link.href, 'index.html modulepreload');
  }

  // Each chunk's source modules, written by apps/web/build/first-paint-guard.ts (absent in older builds).
  const modulesPath = path.join(distDir, '.vite/chunk-modules.json');
  const modules = fs.existsSync(modulesPath)
    ? (JSON.parse(fs.readFileSync(modulesPath, 'utf8')) as Record<string, string[]>)
    : undefined;

  let homeChunkFound: BundleReport['homeChunkFound'] = 'no-manifest';
  const manifestPath = path.join(distDir, '.vite/manifest.json');
  if (fs.existsSync(manifestPath)) {
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
    const homeKey = Object.keys(manifest).find((key) =>
      (manifest[key]?.src ?? key).endsWith('features/home/home-page.tsx'),
    );
    homeChunkFound = homeKey !== undefined;
    const visit = (key: string, why: string) => {
      const chunk = manifest[key];
      if (!chunk) return;
      const url = `/${chunk.file}`;
      if (wanted.has(url)) return;
      wanted.set(url, why);
      for (const imported of chunk.imports ?? []) visit(imported, `imported by ${chunk.src ?? key}`);
    };
    if (homeKey) visit(homeKey, `home route chunk (${homeKey})`);
    // A build whose entry carries the first paint's strings (issue 14) loads the full catalog after it
    // paints; an older build awaited the whole English catalog, a chunk of its own, first.
    const stringsKey = Object.keys(manifest).find((key) =>
      (manifest[key]?.src ?? key).endsWith('locales/en.json'),
    );
    const stringsInline = [...wanted.keys()].some((url) =>
      (modules?.[url.replace(/^\//, '')] ?? []).some((id) => /\/locales\/en\.json$/.test(id)),
    );
    if (stringsKey && !stringsInline) visit(stringsKey, 'default language strings (en)');
    // Since issue 14 the home page is built into the entry chunk: found there, nothing is missing.
    const homeInline = [...wanted.keys()].some((url) =>
      (modules?.[url.replace(/^\//, '')] ?? []).some((id) => /\/features\/home\/home-page\.tsx$/.test(id)),
    );
    homeChunkFound ||= homeInline;
  }

  const files: BundleFile[] = [];
  const zod = new Set<string>();
  const otherLanguages = new Set<string>();
  for (const [url, why] of wanted) {
    if (/^(https?:)?\/\//.test(url)) continue; // not ours to measure (there should be none)
    const content = fs.readFileSync(path.join(distDir, url.replace(/^\//, '')));
    files.push({
      file: url,
      bytes: content.length,
      gzipBytes: zlib.gzipSync(content, { level: 6 }).length,
      why,
    });
    for (const id of modules?.[url.replace(/^\//, '')] ?? []) {
      if (/\/node_modules\/zod\//.test(id)) zod.add(url);
      const language = /\/locales\/([\w-]+)\.json$/.exec(id)?.[1];
      if (language && language !== 'en') otherLanguages.add(`${language} in ${url}`);
    }
  }
  // Without the module map, a chunk Vite named after zod still gives it away.
  if (!modules) for (const { file } of files) if (/\/(zod|schemas)-/.test(file)) zod.add(file);
  return {
    files,
    gzipTotal: files.reduce((sum, file) => sum + file.gzipBytes, 0),
    rawTotal: files.reduce((sum, file) => sum + file.bytes, 0),
    homeChunkFound,
    zod: [...zod],
    otherLanguages: [...otherLanguages],
  };
}
