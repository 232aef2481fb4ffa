import os from 'node:os';
import { defineConfig } from 'vitest/config';

/** One runner for contract, server and web unit tests; e2e runs separately in real Chromium. */
export default defineConfig({
  test: {
    projects: [
      'packages/contract',
      'apps/server',
      'apps/server/vitest.isolated.config.ts',
      'apps/web',
      'apps/web/vitest.isolated.config.ts',
    ],
    // Vitest's default is one worker fewer than the cores, which is a single worker on CI's 2 cores;
    // the files spend much of their time waiting on their database, so two keep both cores busy.
    maxWorkers: Math.max(os.availableParallelism(), 2),
  },
});
