/**
 * The dashboard's call (ours; 000 2.2 `/{city}/dashboard`, every role; docs/architecture.md 'Adding
 * a route'): `GET /{city}/api/statistics/dashboard/` → 200 `DashboardAnswer` (src/shared/dashboard.ts),
 * the figures of the last 30 Tokyo days (./dashboard-figures.ts) that the caller may read, each with
 * the previous 30 days' value, a daily series and the route of its page. Query: `end_date`
 * (YYYY-MM-DD, optional, default today in Tokyo): the last day of the period.
 * Every signed-in role may read its dashboard (`page:dashboard`, src/shared/pages.ts): 401 without a
 * session, 403/404 for a city not the caller's; then the query's schema (400 with field errors).
 */
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_DAYS, type DashboardAnswer } from '../../shared/dashboard';
import type { Manifest } from '../../shared/manifest';
import { effectiveRole } from '../../shared/roles';
import { STATISTIC_TIME_ZONE } from '../../shared/statistics';
import { authorize } from '../auth/authorize';
import { HttpError } from '../http-error';
import { loadManifests } from '../manifests';
import { answer, errorAnswers } from '../openapi/components';
import { throwIfInvalid } from '../plugins/validation';
import { addDays, dayNumber } from './aggregate-sql';
import { dashboardFigures, scopeOf } from './dashboard-figures';

const DAY = { type: 'string', format: 'date', description: 'A Tokyo day, YYYY-MM-DD' };

/** The query of the call. */
const QUERY_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { end_date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The last day of the period (Tokyo; default today)' } },
};

/** The answer of the call (DashboardAnswer). */
export const DASHBOARD_ANSWER_SCHEMA = {
  type: 'object',
  required: ['scope', 'start_date', 'end_date', 'figures'],
  properties: {
    scope: { type: 'string', enum: ['city', 'shops', 'school'], description: "Whose figures: the city's, the Advertiser's shops, the President's or Teacher's school" },
    start_date: DAY,
    end_date: DAY,
    figures: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'label', 'value', 'previous', 'format', 'series'],
        properties: {
          key: { type: 'string' },
          label: { type: 'string', description: 'i18n key of the title' },
          value: { type: 'number', description: 'Over the period (a stock figure: at its end)' },
          previous: { type: 'number', description: 'Over the previous period of the same length (a stock figure: at its end)' },
          format: { type: 'string', enum: ['yen', 'number'] },
          series: { type: 'array', items: { type: 'number' }, description: 'One value per day of the period, oldest first' },
          route: { type: 'string', description: 'Console route below /{city}/ of the figure’s page' },
        },
      },
    },
  },
};

/** Today in Tokyo, YYYY-MM-DD. */
export function tokyoToday(now = Date.now()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: STATISTIC_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * Registers the dashboard's call. `manifests` (default menus/*.json) give the routes the figures link
 * to: entries of the caller's menu in the city (000 6 menu sets).
 */
export function registerDashboardRoutes(app: FastifyInstance, manifests: Readonly<Record<string, Manifest>> = loadManifests()): void {
  app.get(
    '/:city/api/statistics/dashboard/',
    {
      schema: {
        operationId: 'statistics_dashboard',
        tags: ['statistics'],
        summary: 'The dashboard of the signed-in role: figures of the last 30 days (path ours)',
        description:
          "Administrators and Operators: the city's figures; an Advertiser: its shops'; a President or Teacher: its school's. A figure is answered only when the role may read its resource; own rows only.",
        params: { type: 'object', required: ['city'], properties: { city: { type: 'string', description: 'City name (000 3 City), e.g. kobe' } } },
        querystring: QUERY_SCHEMA,
        response: { '200': answer('The dashboard', DASHBOARD_ANSWER_SCHEMA), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request): Promise<DashboardAnswer> => {
      const { profile, city, ability } = await authorize(request, 'read', 'page:dashboard');
      throwIfInvalid(request);
      const role = effectiveRole(profile);
      if (!role) throw new HttpError('forbidden');
      const end = (request.query as { end_date?: string }).end_date ?? tokyoToday();
      if (Number.isNaN(dayNumber(end))) throw new HttpError('validation', { fieldErrors: { end_date: [{ key: 'validation.generic.format', params: { field: 'end_date' } }] } });
      const start = addDays(end, 1 - DASHBOARD_DAYS);
      const scope = scopeOf(role);
      const figures = await dashboardFigures({ db: app.db, resources: app.resources, manifests, ability, role, city, start, end, days: DASHBOARD_DAYS }, scope);
      return { scope, start_date: start, end_date: end, figures };
    },
  );
}
