import { afterEach, beforeEach, vi } from 'vitest';

// A test that makes the server log console.error has found a fault nobody asserted (epic-stack habit).
// A test that expects it mocks console.error itself.
beforeEach(() => {
  const original = console.error;
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    original(...args);
    throw new Error('console.error was called: assert the fault, or mock console.error in the test');
  });
});

// The files of a worker share one module graph and one global scope (vitest.config.ts): a test leaves
// no stubbed global or fake clock to the next file.
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
