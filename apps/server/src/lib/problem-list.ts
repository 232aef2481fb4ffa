import { IMPORT_PROBLEMS_KEPT } from '@elex/contract';
import type { CsvProblem } from './csv.js';

/**
 * The problems of a file as an import answers and keeps them: the first ones by line (a line's
 * problems in the order they were found), and how many there were, on how many lines. A file of a
 * million bad lines is told as "… and N more", not held as a million problems (issue 14).
 */
export interface ProblemSummary {
  problems: CsvProblem[];
  count: number;
  lines: number;
}

/**
 * Collects problems holding at most twice `limit` of them. Lines are counted as they change, so
 * within a pass problems come in file order; passes cover different lines (`newPass`).
 */
export class ProblemList {
  private kept: Array<{ problem: CsvProblem; seq: number }> = [];
  private seq = 0;
  private count = 0;
  private lines = 0;
  private lastLine: number | undefined;

  constructor(private readonly limit = IMPORT_PROBLEMS_KEPT) {}

  add(problem: CsvProblem): void {
    this.count += 1;
    if (problem.line !== this.lastLine) this.lines += 1;
    this.lastLine = problem.line;
    this.kept.push({ problem, seq: this.seq });
    this.seq += 1;
    if (this.kept.length >= 2 * this.limit) this.trim();
  }

  /** The next problems are of other lines than those so far (another check over the file). */
  newPass(): void {
    this.lastLine = undefined;
  }

  get size(): number {
    return this.count;
  }

  summary(): ProblemSummary {
    this.trim();
    return { problems: this.kept.map(({ problem }) => problem), count: this.count, lines: this.lines };
  }

  private trim(): void {
    this.kept.sort((a, b) => a.problem.line - b.problem.line || a.seq - b.seq);
    if (this.kept.length > this.limit) this.kept.length = this.limit;
  }
}
