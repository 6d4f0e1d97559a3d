/**
 * The open text views of 000 2.1: policy, terms, app usage instruction, app usage survey, bread FAQ
 * and booking policy. No token and no chosen city needed; short translated texts (locales access.json
 * `access.views.<view>`).
 */
import { useTranslation } from 'react-i18next';
import type { StaticView } from '@/shared/open-routes';
import { OpenPageFrame } from './open-page-frame';

/** One open text view (its paths: STATIC_VIEWS of src/shared/open-routes.ts). */

export function StaticViewPage({ view }: { view: StaticView }) {
  const { t } = useTranslation();
  return (
    <OpenPageFrame title={t(`access.views.${view}.title`)}>
      <p style={{ lineHeight: 1.8, margin: 0 }}>{t(`access.views.${view}.body`)}</p>
    </OpenPageFrame>
  );
}
