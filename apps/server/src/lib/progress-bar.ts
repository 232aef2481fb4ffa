import cliProgress from 'cli-progress';

/** Where an operator command writes: lines, and progress bars when a terminal is watching. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
  /** Draw progress bars on stderr (a terminal); off in tests and pipes. */
  progress?: boolean;
}

/** A progress bar on stderr, or nothing when `io.progress` is off. */
export function progressBar(io: CommandIo, label: string, unit: string) {
  if (!io.progress) return { update: (_done: number, _total: number) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label.padEnd(10)} |{bar}| {percentage}% {value}/{total} ${unit}`,
      stream: process.stderr,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done: number, total: number) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.setTotal(total);
      bar.update(done);
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
