/**
 * What the first page will wait for, asked for at once when the console starts, side by side, rather
 * than each when the code before it has run (docs/performance.md 'What each page loads'):
 * - antd's and dayjs's locale of the stored language (antd-config-provider.tsx awaits it);
 * - on a city's page (a first path segment that is not an open or server one, shared/open-routes.ts):
 *   the console's code (one chunk, scripts/lib/console-chunks.ts), which asks for the rest the page
 *   needs when it runs (console-app.tsx). Without this it came only once the boot catalogue was in
 *   and the router had rendered. A visitor without a session is sent on to the login page, having
 *   loaded the console's code for nothing.
 * Imported first by main.tsx, and its own chunk, evaluated before the boot chunk (scripts/lib/console-chunks.ts):
 * a module evaluated after i18n.ts would wait for its catalogue.
 */
import { isCityPagePath } from '@/shared/open-routes';
import { loadAntdLocale } from './layout/antd-locale';
import { storedLanguage } from './stored-language';

void loadAntdLocale(storedLanguage());
if (typeof location !== 'undefined' && isCityPagePath(location.pathname)) {
  // Its evaluation asks for the rest (console-app.tsx: the catalogues, the manifests, the page, its rows).
  void import('./console-app');
}
