/** A light placeholder while a lazy page or the session check loads (no antd, to keep it small). */
import { useTranslation } from 'react-i18next';

export function Loading() {
  const { t } = useTranslation();
  return (
    <div role="status" aria-live="polite" style={{ padding: 48, textAlign: 'center', color: 'rgba(0,0,0,0.45)' }}>
      {t('app.loading')}
    </div>
  );
}
