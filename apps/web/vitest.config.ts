import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // A journey through a page with user-event takes 1-3 s alone and more on a busy 2-core machine;
    // Vitest's 5 s default failed such tests for load, not behaviour; with two test files per core a
    // journey typing two addresses took 15.6 s on a machine at load 10.
    testTimeout: 30_000,
  },
});
