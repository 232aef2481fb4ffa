import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** apps/server: where `src/cli.ts` and `src/main.ts` live. */
export const serverRoot = path.resolve(import.meta.dirname, '../..');
// By file URL: the CLI may run from an operator's own directory, where `tsx` does not resolve.
const tsx = pathToFileURL(path.resolve(serverRoot, '../../node_modules/tsx/dist/loader.mjs')).href;

/**
 * `npm run ops -- <args>` as a child process, answering its exit code (or signal) and output.
 * `killAfter`: SIGKILL it as soon as its stdout matches (a crash in the middle of a command).
 */
export function runCliProcess(
  args: string[],
  options: {
    env: NodeJS.ProcessEnv;
    cwd?: string;
    killAfter?: RegExp;
    /** SIGKILL it when this settles (something outside its output says the moment has come). */
    killWhen?: Promise<unknown>;
  },
) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ['--import', tsx, path.join(serverRoot, 'src/cli.ts'), ...args], {
        cwd: options.cwd ?? serverRoot,
        env: options.env,
      });
      let stdout = '';
      let stderr = '';
      let killed = false;
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (options.killAfter && !killed && options.killAfter.test(stdout)) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      void options.killWhen?.then(() => {
        if (!killed) {
          killed = true;
          child.kill('SIGKILL');
        }
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    },
  );
}
