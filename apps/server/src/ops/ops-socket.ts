import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import * as z from 'zod';
import type { AppDeps } from '../deps.js';
import { type OpsRequest, runOpsCommand } from './run-command.js';

/**
 * Operator commands beside a server on embedded PGlite (docs/decisions.md, "Operator commands beside
 * the running server"). PGlite is one process per data directory, so while the server holds it the
 * CLI does not open it: it sends the command over this Unix socket, the server runs the very same
 * `runOpsCommand` on its own database (its transactions queue with the requests' on PGlite's one
 * session instead of mixing with them), and streams the output lines and the exit code back.
 *
 * The socket lives in DATA_DIR with mode 0600: whoever may reach it may already read the data files.
 * One JSON line asks; JSON lines answer: {"out": line} | {"err": line} | {"exit": code}.
 */
export const OPS_SOCKET_NAME = 'ops.sock';

export function opsSocketPath(dataDir: string): string {
  return path.join(dataDir, OPS_SOCKET_NAME);
}

const REQUEST_MAX_BYTES = 1024 * 1024;

const RequestSchema = z.object({
  name: z.string().min(1).max(100),
  args: z.array(z.string().max(100_000)).max(1000),
  operator: z.string().max(320).optional(),
  osUser: z.string().max(100),
  cwd: z.string().max(4096),
  progressLines: z.boolean(),
});
export type SocketRequest = z.infer<typeof RequestSchema> & OpsRequest;

type Reply = { out: string } | { err: string } | { exit: number };

export interface OpsSocket {
  /** Stops taking commands and waits for the ones running (their transactions must end first). */
  stop(): Promise<void>;
}

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Listens on DATA_DIR/ops.sock; a stale socket of a crashed server is replaced. */
export async function startOpsSocket(deps: AppDeps, dataDir: string, log: Log): Promise<OpsSocket> {
  const socketPath = opsSocketPath(dataDir);
  // The caller holds the data-directory lock, so a socket file left here belongs to a dead process.
  fs.rmSync(socketPath, { force: true });
  const running = new Set<Promise<void>>();
  const server = net.createServer((socket) => {
    const done = serveOne(deps, socket, log).finally(() => running.delete(done));
    running.add(done);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  server.on('error', (error) => log.error({ err: error }, 'operator command socket failed'));
  return {
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...running]);
      fs.rmSync(socketPath, { force: true });
    },
  };
}

async function serveOne(deps: AppDeps, socket: net.Socket, log: Log): Promise<void> {
  // The operator may hang up (Ctrl-C): the command still runs to its end, its transactions whole.
  socket.on('error', () => {});
  const send = (reply: Reply) => {
    if (socket.writable) socket.write(`${JSON.stringify(reply)}\n`);
  };
  const line = await firstLine(socket);
  const parsed = line === undefined ? undefined : RequestSchema.safeParse(safeJson(line));
  if (!parsed?.success) {
    send({ err: 'The server did not understand the command request.' });
    send({ exit: 2 });
    socket.end();
    return;
  }
  const request = parsed.data;
  const started = Date.now();
  let exitCode = 1;
  try {
    exitCode = await runOpsCommand(
      deps,
      {
        name: request.name,
        args: request.args,
        operator: request.operator,
        osUser: request.osUser,
      },
      {
        out: (text) => send({ out: text }),
        err: (text) => send({ err: text }),
        progress: false,
        progressLines: request.progressLines,
        cwd: request.cwd,
      },
    );
  } catch (error) {
    log.error({ err: error, command: request.name }, 'operator command failed');
    send({ err: `The command failed: ${(error as Error)?.message ?? String(error)}` });
  }
  log.info(
    { command: request.name, operator: request.operator ?? null, exitCode, ms: Date.now() - started },
    'operator command',
  );
  send({ exit: exitCode });
  socket.end();
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The request line, or undefined when the peer hangs up or sends too much first. */
function firstLine(socket: net.Socket): Promise<string | undefined> {
  return new Promise((resolve) => {
    let buffered = '';
    const finish = (value: string | undefined) => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('close', onEnd);
      resolve(value);
    };
    const onData = (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end >= 0) finish(buffered.slice(0, end));
      else if (buffered.length > REQUEST_MAX_BYTES) finish(undefined);
    };
    const onEnd = () => finish(undefined);
    // Decoded across chunks: a character split between two would come out as two replacement marks.
    socket.setEncoding('utf8');
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', onEnd);
  });
}

/**
 * The CLI's side: sends the request to the server holding the data directory and relays what comes
 * back. Answers the command's exit code, or 'unreachable' when nobody answers on the socket.
 */
export function runThroughServer(
  socketPath: string,
  request: SocketRequest,
  io: { out(line: string): void; err(line: string): void },
): Promise<number | 'unreachable'> {
  return new Promise((resolve) => {
    let connected = false;
    let exitCode: number | undefined;
    let buffered = '';
    const socket = net.createConnection(socketPath);
    socket.on('connect', () => {
      connected = true;
      socket.write(`${JSON.stringify(request)}\n`);
    });
    // Decoded across chunks (a long output splits a Chinese or Korean character between two).
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const reply = safeJson(buffered.slice(0, end)) as Partial<Record<'out' | 'err' | 'exit', unknown>>;
        buffered = buffered.slice(end + 1);
        if (typeof reply?.out === 'string') io.out(reply.out);
        else if (typeof reply?.err === 'string') io.err(reply.err);
        else if (typeof reply?.exit === 'number') exitCode = reply.exit;
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!connected) return resolve('unreachable');
      if (exitCode === undefined) {
        io.err('The server closed the connection before the command finished; see its log.');
        return resolve(1);
      }
      resolve(exitCode);
    });
  });
}
