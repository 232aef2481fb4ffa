import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runThroughServer } from './ops-socket.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the CLI reading a command’s output through the server’s socket', () => {
  it('keeps a character that arrives split between two chunks (found in review)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ops-socket-'));
    const socketPath = path.join(dir, 'ops.sock');
    const line = Buffer.from(`${JSON.stringify({ out: '已结算 1 条记录 · 정산 완료' })}\n`);
    // Cut inside the first Chinese character's three bytes.
    const cut = line.indexOf(Buffer.from('已')) + 1;
    const server = net.createServer((socket) => {
      socket.once('data', async () => {
        socket.write(line.subarray(0, cut));
        await new Promise((resolve) => setTimeout(resolve, 20));
        socket.write(line.subarray(cut));
        socket.end(`${JSON.stringify({ exit: 0 })}\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const out: string[] = [];
    try {
      const code = await runThroughServer(
        socketPath,
        { name: 'sync:status', args: [], osUser: 'night-shift', cwd: dir, progressLines: true },
        { out: (text) => out.push(text), err: () => {} },
      );
      expect(code).toBe(0);
      expect(out).toEqual(['已结算 1 条记录 · 정산 완료']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
