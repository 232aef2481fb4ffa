import { parseArgs } from 'node:util';

/**
 * An operator command's arguments through node:util's parseArgs (strict: an unknown option is an
 * error), each option taking a value (`--name value` or `--name=value`), with the refusal worded for
 * the operator ("unknown option --since", "--from needs a value") instead of thrown.
 */
export function readCommandArgs<const N extends string>(
  args: readonly string[],
  names: readonly N[],
): { positionals: string[]; values: Partial<Record<N, string>> } | string {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(names.map((name) => [name, { type: 'string' as const }])),
    });
    return { positionals, values: values as Partial<Record<N, string>> };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const text = error instanceof Error ? error.message : String(error);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      return `unknown option ${/'(-[^' ]+)'/.exec(text)?.[1] ?? text}`;
    }
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      return `--${/'--([\w-]+)/.exec(text)?.[1] ?? '?'} needs a value`;
    }
    throw error;
  }
}
