import { parseArgs } from 'node:util';

/**
 * Takes `--operator <email|id>` (or `--operator=...`) out of the command line, wherever it stands,
 * and leaves every other argument, in order, to the command's own parser.
 */
export function takeOperatorFlag(
  argv: readonly string[],
): { operator: string | undefined; rest: string[] } | { error: string } {
  const { tokens } = parseArgs({
    args: [...argv],
    options: { operator: { type: 'string' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const dropped = new Set<number>();
  let operator: string | undefined;
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name !== 'operator') continue;
    // Not strict: a value that looks like the next option was not meant as the operator.
    if (
      token.value === undefined ||
      token.value === '' ||
      (!token.inlineValue && token.value.startsWith('-'))
    ) {
      return { error: '--operator needs a value: an operator’s e-mail or user id.' };
    }
    if (operator !== undefined && operator !== token.value) return { error: 'name one operator, not two.' };
    operator = token.value;
    dropped.add(token.index);
    if (!token.inlineValue) dropped.add(token.index + 1);
  }
  return { operator, rest: argv.filter((_arg, index) => !dropped.has(index)) };
}
