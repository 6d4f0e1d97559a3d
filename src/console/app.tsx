/**
 * The console's wiring (docs/architecture.md 'Console'; refine's example apps): the router, i18n and antd's
 * configuration around the top-level routes (./routes.tsx). The open pages (the login page among
 * them) render here without Refine; the console behind a session (./console-app.tsx: Refine and its
 * providers, the city's resources) loads lazily, so the login page stays small.
 */
import { useEffect } from 'react';
import { BrowserRouter } from 'react-router';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n } from './i18n';
import { AntdConfigProvider } from './layout/antd-config-provider';
import { AppRoutes } from './routes';

function DocumentTitle() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t('app.title');
  }, [t]);
  return null;
}

export function App() {
  return (
    <BrowserRouter>
      <I18nextProvider i18n={i18n}>
        <AntdConfigProvider>
          <DocumentTitle />
          <AppRoutes />
        </AntdConfigProvider>
      </I18nextProvider>
    </BrowserRouter>
  );
}
