import { describe, expect, it } from 'vitest';
import { homePreloadTags, type PreloadChunk } from './preload-home';

const HOME = '/repo/apps/web/src/features/home/home-page.tsx';
const chunk = (fileName: string, more: Partial<PreloadChunk> = {}): PreloadChunk => ({
  fileName,
  isEntry: false,
  facadeModuleId: null,
  imports: [],
  css: [],
  ...more,
});

describe("index.html's hints for the home route (issue 14)", () => {
  it("names the home's chunk, the chunks it imports and its style sheet, not the entry nor other pages", () => {
    const tags = homePreloadTags([
      chunk('assets/index.js', { isEntry: true, imports: ['assets/shared.js'] }),
      chunk('assets/home-page.js', {
        facadeModuleId: HOME,
        imports: ['assets/index.js', 'assets/icon.js'],
        css: ['assets/home-page.css'],
      }),
      chunk('assets/icon.js', { imports: ['assets/index.js'] }),
      chunk('assets/calculator-page.js', { facadeModuleId: '/repo/apps/web/src/features/calculator/x.tsx' }),
    ]);
    expect(tags.map((tag) => [tag.attrs?.rel, tag.attrs?.href])).toEqual([
      ['modulepreload', '/assets/home-page.js'],
      ['modulepreload', '/assets/icon.js'],
      ['preload', '/assets/home-page.css'],
    ]);
  });

  it('fails the build when the home route has no chunk to hint', () => {
    expect(() => homePreloadTags([chunk('assets/index.js', { isEntry: true })])).toThrow(/home-page/);
  });
});
