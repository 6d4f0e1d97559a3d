/**
 * Budget lines of `npm run bench`: each measured figure beside its budget and 'ok' or 'OVER', printed
 * as one table at the end. A figure that could not be measured, or was measured on the wrong page,
 * is shown as such ('n/a' with the reason) instead of a number. Nothing here fails the run.
 */

export type BudgetStatus = 'ok' | 'OVER' | 'n/a';

export interface BudgetRow {
  /** What was measured, e.g. 'login desktop: Lighthouse score'. */
  figure: string;
  /** The figure as printed, e.g. '0.97', '182 ms', '312.4 KB', or the reason it is missing. */
  value: string;
  /** The budget as printed, e.g. '≥ 0.95', '≤ 200 ms'. */
  budget: string;
  status: BudgetStatus;
}

/** Formats a byte count in KB (1 KB = 1024 bytes), one decimal. */
export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Formats milliseconds without decimals (one below 10 ms). */
export function ms(value: number): string {
  return `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;
}

/**
 * A numeric figure against a limit: `'max'` (value ≤ limit) or `'min'` (value ≥ limit). `value` null
 * = not measured (then `missing` says why, default 'not measured'). `format` prints value and limit
 * in the figure's unit.
 */
export function limitRow(figure: string, value: number | null, kind: 'max' | 'min', limit: number, format: (n: number) => string, missing = 'not measured'): BudgetRow {
  const budget = `${kind === 'max' ? '≤' : '≥'} ${format(limit)}`;
  if (value === null || Number.isNaN(value)) return { figure, value: missing, budget, status: 'n/a' };
  const ok = kind === 'max' ? value <= limit : value >= limit;
  return { figure, value: format(value), budget, status: ok ? 'ok' : 'OVER' };
}

/** A yes/no figure that must be yes (`passed` null = not measured, with `missing` as the reason). */
export function passRow(figure: string, passed: boolean | null, shown: string, missing = 'not measured'): BudgetRow {
  if (passed === null) return { figure, value: missing, budget: 'passed', status: 'n/a' };
  return { figure, value: shown, budget: 'passed', status: passed ? 'ok' : 'OVER' };
}

/** Columns a string takes in a terminal: East Asian wide and full-width characters take two. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    const wide =
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      c >= 0x20000;
    width += wide ? 2 : 1;
  }
  return width;
}

/** The table of every row, aligned, with a count of rows over budget and not measured below it. */
export function formatBudgetTable(rows: readonly BudgetRow[]): string {
  const head: BudgetRow = { figure: 'figure', value: 'measured', budget: 'budget', status: 'n/a' };
  const w = (pick: (r: BudgetRow) => string) => Math.max(...[head, ...rows].map((r) => displayWidth(pick(r))));
  const wf = w((r) => r.figure);
  const wv = w((r) => r.value);
  const wb = w((r) => r.budget);
  const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - displayWidth(s)));
  const line = (r: BudgetRow, status: string) => `${pad(r.figure, wf)}  ${pad(r.value, wv)}  ${pad(r.budget, wb)}  ${status}`;
  const over = rows.filter((r) => r.status === 'OVER').length;
  const missing = rows.filter((r) => r.status === 'n/a').length;
  return [
    line(head, 'status'),
    '-'.repeat(wf + wv + wb + 12),
    ...rows.map((r) => line(r, r.status)),
    `${rows.length} figures: ${rows.length - over - missing} ok, ${over} over budget${missing ? `, ${missing} not measured` : ''}`,
  ].join('\n');
}
