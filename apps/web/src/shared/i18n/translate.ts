/** What a caller may pass with a key: values for `{{name}}`, and the text for a key the catalog lacks. */
export type TranslateOptions = { defaultValue?: string } & Record<string, unknown>;

/** One language's strings by namespace: `translation` (the catalog) and `msg` (the server messages). */
export type Bundles = Partial<Record<'translation' | 'msg', Record<string, unknown>>>;

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

/**
 * i18next's reading of a key, for the part of its format the first paint uses: `ns:section.key`,
 * `{{name}}` values (not escaped, as the app configures i18next; left as they are without one), `defaultValue`, and the key itself
 * when the catalog lacks it. No plurals, nesting or formats: translate.test.ts holds every first-paint
 * string to that and this reading equal to i18next's.
 */
export function translate(
  bundles: Bundles,
  key: string,
  options: TranslateOptions = {},
  onMissing?: (namespace: string, key: string) => void,
): string {
  const colon = key.indexOf(':');
  const namespace = colon > 0 && key.slice(0, colon) === 'msg' ? 'msg' : 'translation';
  const path = namespace === 'msg' ? key.slice(colon + 1) : key;
  let found: unknown = bundles[namespace];
  for (const part of path.split('.')) {
    found =
      found !== null && typeof found === 'object' ? (found as Record<string, unknown>)[part] : undefined;
  }
  if (typeof found !== 'string') onMissing?.(namespace, path);
  const text = typeof found === 'string' ? found : options.defaultValue;
  if (text === undefined) return path;
  return text.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = options[name];
    // i18next leaves a placeholder without a value as it is.
    if (value === undefined) return placeholder;
    return value === null ? '' : String(value);
  });
}
