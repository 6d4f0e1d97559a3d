/**
 * The page of a hand-written screen that comes later (000 2.2: statistics, maps, chat, CSV import):
 * its title and a sentence saying what will be there, translated (`placeholder.<name>.title/body`).
 */
import { useTranslation } from 'react-i18next';
import { Card, Result } from 'antd';
import type { PlaceholderPage as PlaceholderName } from '@/shared/pages';

export function PlaceholderPage({ name }: { name: PlaceholderName }) {
  const { t } = useTranslation();
  return (
    <Card data-testid={`placeholder-${name}`}>
      <Result status="info" title={<h1 style={{ fontSize: 24, margin: 0 }}>{t(`placeholder.${name}.title`)}</h1>} subTitle={t(`placeholder.${name}.body`)} />
    </Card>
  );
}
