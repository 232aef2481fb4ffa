import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite is one process per data directory: a second process opening it can corrupt it.
 * The lock file holds the owner's pid; a stale lock (its process gone) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'elex.lock');
  const owner = readOwner(lockPath);
  if (owner !== undefined && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `The data directory ${dataDir} is in use by process ${owner}. Stop it first, or set DATA_DIR.`,
    );
  }
  fs.writeFileSync(lockPath, String(process.pid));
  return () => {
    if (readOwner(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
  };
}

/** The pid holding the directory, if a live process holds it. */
export function dataDirOwner(dataDir: string): number | undefined {
  const owner = readOwner(path.join(dataDir, 'elex.lock'));
  return owner !== undefined && isAlive(owner) ? owner : undefined;
}

function readOwner(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
    return Number.isFinite(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
