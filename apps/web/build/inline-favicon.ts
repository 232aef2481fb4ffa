import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** The SVG as a `data:` address: the icon arrives with the page instead of as a request of its own. */
export function faviconDataUrl(svg: string): string {
  return `data:image/svg+xml,${encodeURIComponent(svg.trim())}`;
}

/**
 * Writes the icon link of index.html as the icon's own bytes (issue 14). The browser asked for
 * `/favicon.svg` while the first page was being drawn, and Lighthouse counts every request started
 * before the largest paint as one it waited for: the home's LCP came 150–200 ms after its first
 * paint for that request alone. `public/favicon.svg` stays the one source, and is still served.
 */
export function inlineFavicon(fileName = 'favicon.svg'): Plugin {
  let publicDir = '';
  const link = `href="/${fileName}"`;
  return {
    name: 'elex-inline-favicon',
    apply: 'build',
    configResolved(config) {
      publicDir = config.publicDir;
    },
    transformIndexHtml(html) {
      if (!html.includes(link)) throw new Error(`index.html has no icon link ${link} to inline`);
      const svg = fs.readFileSync(path.join(publicDir, fileName), 'utf8');
      return html.replace(link, `href="${faviconDataUrl(svg)}"`);
    },
  };
}
