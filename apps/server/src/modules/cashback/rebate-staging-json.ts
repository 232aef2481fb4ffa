import type { CommissionEntry } from '../../integrations/exchanges/types.js';

/**
 * A batch as the staging statement's one JSON parameter: the text JSON.stringify gives of the rows as
 * objects (rebate-import-staging-json.test.ts), written row by row without them, each boundary's ISO
 * text made once per batch (the batch's work was a third of Node's staging time, issue 14).
 */
export function stagingJson(entries: readonly CommissionEntry[], lines: readonly number[]): string {
  const isoTexts = new Map<number, string>();
  const iso = (time: Date) => {
    const at = time.getTime();
    let text = isoTexts.get(at);
    if (text === undefined) {
      text = time.toISOString();
      isoTexts.set(at, text);
    }
    return text;
  };
  const rows: string[] = new Array(entries.length);
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as CommissionEntry;
    rows[index] =
      `{"line":${JSON.stringify(lines[index])},"uid":${JSON.stringify(entry.uid)},` +
      `"period_start":"${iso(entry.periodStart)}","period_end":"${iso(entry.periodEnd)}",` +
      `"trading_volume_micro":"${entry.tradingVolumeMicro}","fee_micro":"${entry.feeMicro}",` +
      `"commission_micro":"${entry.commissionMicro}"}`;
  }
  return `[${rows.join(',')}]`;
}
