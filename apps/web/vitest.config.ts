import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { testFilesByIsolation } from '../../vitest.isolation.js';

/**
 * Two projects over the same files: those that replace a module keep a module graph and a jsdom of
 * their own; the others share one per worker (docs/decisions.md, "Test files share their modules").
 * The setup file runs for each file either way: it loads the app's modules afresh (each file is a page
 * load), and after each test cleans the document, the storage, the language, the toasts, stubbed
 * globals and fake timers.
 */
const byIsolation = testFilesByIsolation(fileURLToPath(new URL('.', import.meta.url)), ['src', 'build']);

const web = (name: string, isolate: boolean, files: string[]) =>
  defineProject({
    plugins: [react()],
    test: {
      name,
      environment: 'jsdom',
      include: files,
      isolate,
      setupFiles: ['./src/test/setup.ts'],
      // A journey through a page with user-event takes 1-3 s alone and more on a busy 2-core machine;
      // Vitest's 5 s default failed such tests for load, not behaviour; with two test files per core a
      // journey typing two addresses took 15.6 s on a machine at load 10.
      testTimeout: 30_000,
    },
  });

export default web('web', false, byIsolation.shared);

export const isolatedWebProject = web('web-isolated', true, byIsolation.isolated);
