/**
 * The console's wiring (DESIGN.md 'Console'; refine's example apps): providers and resources only.
 * Router: react-router 7 through @refinedev/react-router. Data, auth and access control come from
 * ./providers; resources from the city's menu manifest for the signed-in role; i18n from
 * react-i18next; notifications from antd (providers/notification-provider.ts). Nothing here imports
 * the registry (the data provider and the ability load it lazily), so the login page stays small
 * (≤ 350 KB gzip).
 */
import { useEffect, useMemo } from 'react';
import { BrowserRouter } from 'react-router';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Refine } from '@refinedev/core';
import { useNotificationProvider } from './providers/notification-provider';
import { i18n } from './i18n';
import { AntdConfigProvider } from './layout/antd-config-provider';
import { accessControlProvider } from './providers/access-control-provider';
import { authProvider } from './providers/auth-provider';
import { dataProvider } from './providers/lazy-data-provider';
import { i18nProvider } from './providers/i18n-provider';
import { routerProvider } from './providers/router-provider';
import { refineResources } from './generated/resource-routes';
import { UnsavedInputGuard } from './generated/unsaved-input-guard';
import { useCityMenu } from './hooks/use-city-menu';
import { useSession } from './hooks/use-session';
import { AppRoutes } from './routes';

/**
 * React Query defaults: an answer with an HTTP error is final (the catalogue's message shows at once,
 * a 403 signs out at once); only a call that got no answer at all is tried once more.
 */
const REACT_QUERY = {
  clientConfig: {
    defaultOptions: {
      queries: { retry: (failures: number, error: unknown) => failures < 1 && ((error as { statusCode?: number } | null)?.statusCode ?? 0) === 0 },
    },
  },
};

function ConsoleRefine() {
  const { t } = useTranslation();
  const { city } = useSession();
  const { routes } = useCityMenu(city);
  // Rebuilt only when a route or a label's text changes, not whenever `t` does (a catalogue arriving):
  // a new resources array re-renders every Refine hook of the page.
  const labels = routes.map((r) => t(r.title)).join('\u0000');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const resources = useMemo(() => refineResources(routes, t), [routes, labels]);
  useEffect(() => {
    document.title = t('app.title');
  }, [t]);
  return (
      <Refine
        routerProvider={routerProvider}
        dataProvider={dataProvider}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        i18nProvider={i18nProvider}
        notificationProvider={useNotificationProvider}
        resources={resources}
        options={{ syncWithLocation: true, disableTelemetry: true, mutationMode: 'pessimistic', warnWhenUnsavedChanges: true, reactQuery: REACT_QUERY }}
      >
        <AppRoutes />
        {/* issue 5: a form with unsaved input asks before the browser tab closes or reloads. */}
        <UnsavedInputGuard />
      </Refine>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <I18nextProvider i18n={i18n}>
        <AntdConfigProvider>
          <ConsoleRefine />
        </AntdConfigProvider>
      </I18nextProvider>
    </BrowserRouter>
  );
}
