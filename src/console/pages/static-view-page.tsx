/**
 * The open text views of 000 2.1: policy, terms, app usage instruction, app usage survey, bread FAQ
 * and booking policy. No token and no chosen city needed; short translated texts (locales access.json
 * `access.views.<view>`).
 */
import { useTranslation } from 'react-i18next';
import { OpenPageFrame } from './open-page-frame';

/** The views and their open paths (000 2.1; `/:city/policy` is the city route without layout, 000 2.2). */
export const STATIC_VIEWS = {
  policy: ['/policy', '/:city/policy'],
  terms: ['/terms'],
  usageInstruction: ['/app-usage-instruction'],
  usageSurvey: ['/app-usage-survey'],
  breadFaq: ['/bread-faq'],
  bookingPolicy: ['/booking-policy'],
} as const;
export type StaticView = keyof typeof STATIC_VIEWS;

export function StaticViewPage({ view }: { view: StaticView }) {
  const { t } = useTranslation();
  return (
    <OpenPageFrame title={t(`access.views.${view}.title`)}>
      <p style={{ lineHeight: 1.8, margin: 0 }}>{t(`access.views.${view}.body`)}</p>
    </OpenPageFrame>
  );
}
