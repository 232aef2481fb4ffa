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
 * dist/index.html, plus (when Vite wrote a manifest) the home page's lazy chunk and the chunks it
 * imports statically that index.html did not already bring, and the strings of the default language
 * (a first visit shows English; each language is its own chunk). Each file gzipped on its own (zlib level 6,
 * what a server's on-the-fly compression typically uses).
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

  let homeChunkFound: BundleReport['homeChunkFound'] = 'no-manifest';
  const manifestPath = path.join(distDir, '.vite/manifest.json');
  if (fs.existsSync(manifestPath)) {
    const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
    const homeKey = Object.keys(manifest).find((key) =>
      (manifest[key]?.src ?? key).includes('features/home'),
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
    const stringsKey = Object.keys(manifest).find((key) =>
      (manifest[key]?.src ?? key).endsWith('locales/en.json'),
    );
    if (stringsKey) visit(stringsKey, 'default language strings (en)');
  }

  const files: BundleFile[] = [];
  for (const [url, why] of wanted) {
    if (/^(https?:)?\/\//.test(url)) continue; // not ours to measure (there should be none)
    const content = fs.readFileSync(path.join(distDir, url.replace(/^\//, '')));
    files.push({
      file: url,
      bytes: content.length,
      gzipBytes: zlib.gzipSync(content, { level: 6 }).length,
      why,
    });
  }
  return {
    files,
    gzipTotal: files.reduce((sum, file) => sum + file.gzipBytes, 0),
    rawTotal: files.reduce((sum, file) => sum + file.bytes, 0),
    homeChunkFound,
  };
}
