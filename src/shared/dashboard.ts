/**
 * The dashboard's answer, as both sides see it (000 2.2 `/{city}/dashboard`, the first page of every
 * role): the figures of the last 30 Tokyo days that the signed-in role may read, each with the
 * previous 30 days' value and a daily series for its sparkline. The server makes it
 * (src/server/statistics/dashboard.ts, `GET /{city}/api/statistics/dashboard/`); the console draws
 * it (src/console/pages/dashboard/).
 */

/** Days of the dashboard's period (and of its previous period), today included. */
export const DASHBOARD_DAYS = 30;

/**
 * Whose figures: the city's (Administrator, Operator; other roles get the city figures they may
 * read), the Advertiser's shops, or the President's or Teacher's school (000 6 own rows).
 */
export type DashboardScope = 'city' | 'shops' | 'school';

/** One figure of the dashboard. */
export interface DashboardFigure {
  /** Stable name, e.g. `new_members` (the test id of its card). */
  key: string;
  /** i18n key of its title (`dashboard.figure.<key>`). */
  label: string;
  /** The figure over the period: rows, a sum, or (a `stock` figure) how many there are at its end. */
  value: number;
  /** The same over the previous period (a `stock` figure: at the previous period's end). */
  previous: number;
  format: 'yen' | 'number';
  /** One value per day of the period, oldest first (DASHBOARD_DAYS values). */
  series: number[];
  /** The console route below `/{city}/` showing the figure's rows or statistic, when the role may open one. */
  route?: string;
}

/** The answer of `GET /{city}/api/statistics/dashboard/`. */
export interface DashboardAnswer {
  scope: DashboardScope;
  /** The period, Tokyo days `YYYY-MM-DD`, both inclusive (end_date is today). */
  start_date: string;
  end_date: string;
  figures: DashboardFigure[];
}

/**
 * The change of a figure against its previous value as a fraction (0.25 = +25 %), or null when the
 * previous value is 0 (no meaningful ratio).
 */
export function changeOf(figure: Pick<DashboardFigure, 'value' | 'previous'>): number | null {
  return figure.previous === 0 ? null : (figure.value - figure.previous) / figure.previous;
}
