/** Where an operator command writes: lines, and progress bars when a terminal is watching. */
export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
  /** Draw progress bars on stderr (a terminal); off in tests and pipes. */
  progress?: boolean;
  /**
   * Without a bar, write progress as plain lines on `out` (stdout is a log or a pipe): a long import
   * run from cron or CI still shows it is moving, and a supervisor can tell how far it got.
   */
  progressLines?: boolean;
  /**
   * Where the operator's shell is: relative file arguments are read from there, also when the
   * running server executes the command (its own working directory is elsewhere).
   */
  cwd?: string;
}

/** Plain progress lines: the first step done, then every tenth of the total, then the end. */
function progressLines(io: CommandIo, label: string, unit: string) {
  let lastTenth = -1;
  return {
    update(done: number, total: number) {
      if (done <= 0 || total <= 0) return;
      const tenth = Math.floor((done * 10) / total);
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      io.out(`${label}: ${done}/${total} ${unit} (${Math.floor((done * 100) / total)}%)`);
    },
    stop: () => {},
  };
}

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

/**
 * A progress bar on stderr; plain lines on stdout when `io.progressLines` asks for them instead;
 * otherwise nothing. cli-progress is loaded only for a bar (the CLI in a terminal), not at start.
 */
export async function progressBar(io: CommandIo, label: string, unit: string): Promise<Progress> {
  if (!io.progress) {
    if (io.progressLines) return progressLines(io, label, unit);
    return { update: (_done: number, _total: number) => {}, stop: () => {} };
  }
  const { default: cliProgress } = await import('cli-progress');
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
