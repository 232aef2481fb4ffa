import { describe, expect, it } from 'vitest';
import { type ChunkInfo, firstPaintViolations } from './first-paint-guard';

const chunk = (fileName: string, moduleIds: string[], more: Partial<ChunkInfo> = {}): ChunkInfo => ({
  fileName,
  isEntry: false,
  facadeModuleId: null,
  imports: [],
  moduleIds,
  ...more,
});

const HOME = '/repo/apps/web/src/features/home/home-page.tsx';

describe('the first-paint guard of the production build (issue 14)', () => {
  it('passes a home route whose entry and chunks carry neither zod nor another language', () => {
    const chunks = [
      chunk('assets/index.js', ['/repo/node_modules/react/index.js', '/repo/apps/web/src/locales/en.json'], {
        isEntry: true,
      }),
      chunk('assets/home-page.js', [HOME], { facadeModuleId: HOME, imports: ['assets/index.js'] }),
      chunk('assets/schemas.js', ['/repo/node_modules/zod/v4/classic/schemas.js']),
      chunk('assets/zh.js', ['/repo/apps/web/src/locales/zh.json?full']),
    ];
    expect(firstPaintViolations(chunks)).toEqual([]);
  });

  it('names zod reached through a chunk the home page imports, and another language in the entry', () => {
    const chunks = [
      chunk('assets/index.js', ['/repo/apps/web/src/locales/ko.json'], { isEntry: true }),
      chunk('assets/home-page.js', [HOME], { facadeModuleId: HOME, imports: ['assets/cashback.js'] }),
      chunk('assets/cashback.js', ['/repo/packages/contract/src/cashback.ts'], {
        imports: ['assets/schemas.js'],
      }),
      chunk('assets/schemas.js', ['/repo/node_modules/zod/v4/classic/schemas.js']),
    ];
    const violations = firstPaintViolations(chunks);
    expect(violations).toHaveLength(2);
    expect(violations.join('\n')).toMatch(/assets\/schemas\.js carries .*zod/);
    expect(violations.join('\n')).toMatch(/assets\/index\.js carries .*ko\.json/);
  });

  it('names the whole catalog of the default language when it rides on the first paint', () => {
    const chunks = [
      chunk('assets/index.js', ['/repo/apps/web/src/locales/en.json?full'], { isEntry: true }),
      chunk('assets/home-page.js', [HOME], { facadeModuleId: HOME }),
    ];
    expect(firstPaintViolations(chunks)).toEqual([expect.stringMatching(/en\.json\?full/)]);
  });

  it("names the home's carousel and tabs libraries when the home page imports them", () => {
    const chunks = [
      chunk('assets/index.js', [], { isEntry: true }),
      chunk('assets/home-page.js', [HOME, '/repo/node_modules/embla-carousel/esm/embla-carousel.esm.js'], {
        facadeModuleId: HOME,
        imports: ['assets/tabs.js'],
      }),
      chunk('assets/tabs.js', ['/repo/node_modules/@radix-ui/react-tabs/dist/index.mjs']),
      chunk('assets/exchange-showcase.js', ['/repo/node_modules/embla-carousel-react/esm/index.js']),
    ];
    const violations = firstPaintViolations(chunks);
    expect(violations).toEqual([
      expect.stringMatching(/home-page\.js carries .*embla-carousel\.esm/),
      expect.stringMatching(/tabs\.js carries .*react-tabs/),
    ]);
  });

  it('names i18next and react-i18next when the shell reaches for them', () => {
    const chunks = [
      chunk('assets/index.js', ['/repo/node_modules/react-i18next/dist/es/useTranslation.js'], {
        isEntry: true,
        imports: ['assets/i18next.js'],
      }),
      chunk('assets/home-page.js', [HOME], { facadeModuleId: HOME }),
      chunk('assets/i18next.js', ['/repo/node_modules/i18next/dist/esm/i18next.js']),
    ];
    expect(firstPaintViolations(chunks)).toEqual([
      expect.stringMatching(/index\.js carries .*react-i18next/),
      expect.stringMatching(/i18next\.js carries .*i18next\.js/),
    ]);
  });

  it('names TanStack Query when the home page imports it', () => {
    const chunks = [
      chunk('assets/index.js', [], { isEntry: true }),
      chunk(
        'assets/home-page.js',
        [HOME, '/repo/node_modules/@tanstack/react-query/build/modern/useQuery.js'],
        {
          facadeModuleId: HOME,
        },
      ),
      chunk('assets/exchange-showcase.js', [
        '/repo/node_modules/@tanstack/query-core/build/modern/queryClient.js',
      ]),
    ];
    expect(firstPaintViolations(chunks)).toEqual([
      expect.stringMatching(/home-page\.js carries .*react-query/),
    ]);
  });

  it('checks a home page built into the entry chunk, and what the entry imports', () => {
    const clean = [chunk('assets/index.js', ['/repo/node_modules/react/index.js', HOME], { isEntry: true })];
    expect(firstPaintViolations(clean)).toEqual([]);
    const withZod = [
      chunk('assets/index.js', [HOME], { isEntry: true, imports: ['assets/schemas.js'] }),
      chunk('assets/schemas.js', ['/repo/node_modules/zod/v4/classic/schemas.js']),
    ];
    expect(firstPaintViolations(withZod)).toEqual([expect.stringMatching(/schemas\.js carries .*zod/)]);
  });

  it('refuses to pass when it cannot find the home route', () => {
    expect(firstPaintViolations([chunk('assets/index.js', [], { isEntry: true })])).toEqual([
      expect.stringMatching(/would check nothing/),
    ]);
  });
});
