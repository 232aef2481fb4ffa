import { defineConfig } from 'vitest/config';

/** One runner for contract, server and web unit tests; e2e runs separately in real Chromium. */
export default defineConfig({
  test: {
    projects: ['packages/contract', 'apps/server', 'apps/web'],
  },
});
