import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { faviconDataUrl, inlineFavicon } from './inline-favicon';

const webRoot = path.resolve(import.meta.dirname, '..');
const svg = fs.readFileSync(path.join(webRoot, 'public/favicon.svg'), 'utf8');

/** The plugin's hooks as Vite calls them at build time. */
function transform(html: string): string {
  const plugin = inlineFavicon();
  (plugin.configResolved as (config: { publicDir: string }) => void)({
    publicDir: path.join(webRoot, 'public'),
  });
  return (plugin.transformIndexHtml as (html: string) => string)(html);
}

describe('the icon inlined into index.html (issue 14: no request before the largest paint)', () => {
  it('writes the icon link of the real index.html as the SVG file itself', () => {
    const html = transform(fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8'));
    expect(html).not.toContain('/favicon.svg');
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1];
    expect(href?.startsWith('data:image/svg+xml,')).toBe(true);
    expect(decodeURIComponent(href?.slice('data:image/svg+xml,'.length) ?? '')).toBe(svg.trim());
  });

  it('leaves nothing in the address that would end the attribute or the URL early', () => {
    expect(faviconDataUrl('<svg a="b#c" d=\'e\'>%</svg>\n')).toBe(
      "data:image/svg+xml,%3Csvg%20a%3D%22b%23c%22%20d%3D'e'%3E%25%3C%2Fsvg%3E",
    );
  });

  it('fails the build when index.html no longer names the icon it inlines', () => {
    expect(() => transform('<html><head></head></html>')).toThrow(/no icon link/);
  });
});
