/**
 * The card a resident sees in the app (001 7.7 coupon preview), on the detail page of a resource that
 * declares an action of kind `preview`: title, image, shop, discount, validity (YYYY年MM月DD日) and
 * conditions as the server's `PreviewCard` gives them. Every value is text, never HTML.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Card, Typography } from 'antd';
import type { PreviewCard } from '@/shared/preview';
import { fillPath, type ResourceDef } from '@/shared/registry';
import { request } from '../providers/http';

/** The `preview` action of `def`, if it declares one. */
export function previewAction(def: ResourceDef) {
  return def.actions.find((a) => a.kind === 'preview');
}

export function PreviewCardPanel({ def, city, id }: { def: ResourceDef; city: string; id: string | number }) {
  const { t } = useTranslation();
  const action = previewAction(def);
  const [card, setCard] = useState<PreviewCard | null>(null);
  const path = action ? fillPath(action.path, { city, id }) : '';
  useEffect(() => {
    if (!path) return;
    let live = true;
    request<PreviewCard>(path).then(
      (c) => live && setCard(c),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [path]);
  if (!card) return null;
  return (
    <section style={{ marginTop: 16 }} aria-label={t('couponPreview.title')} data-testid="preview-card">
      <Typography.Title level={5}>{t('couponPreview.title')}</Typography.Title>
      <Card style={{ maxWidth: 360 }} cover={card.image ? <img src={card.image} alt="" style={{ aspectRatio: '16 / 9', objectFit: 'cover' }} /> : undefined}>
        {card.shop && <Typography.Text type="secondary">{card.shop}</Typography.Text>}
        <Typography.Title level={4} style={{ margin: '4px 0 8px' }}>
          {card.title}
        </Typography.Title>
        {card.discount && <Typography.Paragraph strong style={{ color: '#c41d7f' }}>{card.discount}</Typography.Paragraph>}
        <Typography.Paragraph style={{ marginBottom: 8 }}>
          {t('couponPreview.validity')}: {card.validity || t('couponPreview.none')}
        </Typography.Paragraph>
        <Typography.Text type="secondary">{t('couponPreview.conditions')}</Typography.Text>
        {card.conditions.length > 0 ? (
          <ul style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
            {card.conditions.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
        ) : (
          <div>{t('couponPreview.none')}</div>
        )}
      </Card>
    </section>
  );
}
