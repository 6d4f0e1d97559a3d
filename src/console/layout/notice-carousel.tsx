/**
 * The notification carousel (000 2.3): the latest admin notices (GET /{city}/api/notify-operator/,
 * newest first, NOTICE_COUNT of them; read again when a live notice arrives) slide by, 70 px high,
 * each with its title, body and optional photo (`photo_url`); a click (or Enter) opens the notice in
 * a popup with an OK button. Shown to the roles that may read admin notices, when there are some.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Carousel, Flex, Typography } from 'antd';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import { request } from '../providers/http';

/** How many notices the carousel shows; its height in px (000 2.3). */
export const NOTICE_COUNT = 5;
export const CAROUSEL_HEIGHT_PX = 70;

interface Notice {
  id: number;
  title: string;
  description?: string;
  photo_url?: string;
}

export function NoticeCarousel({ city, version }: { city: string; version: number }) {
  const { t } = useTranslation();
  const { modal } = AntdApp.useApp();
  const [notices, setNotices] = useState<Notice[]>([]);
  const allowed = useAbility<AppAbility>().can('read', 'notify_operator');

  useEffect(() => {
    if (!allowed) return;
    let live = true;
    request<{ content?: Notice[] }>(`/${encodeURIComponent(city)}/api/notify-operator/`, { query: { limit: NOTICE_COUNT, offset: 0 } })
      .then((r) => live && setNotices(r?.content ?? []))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [city, version, allowed]);

  if (!allowed || notices.length === 0) return null;
  const open = (n: Notice) =>
    modal.info({
      title: n.title,
      content: (
        <Flex vertical gap={8}>
          {n.photo_url && <img src={n.photo_url} alt="" style={{ maxWidth: '100%', maxHeight: 240, objectFit: 'contain' }} />}
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{n.description}</Typography.Paragraph>
        </Flex>
      ),
      okText: 'OK',
    });

  return (
    <section aria-label={t('shell.carousel.title')} data-testid="notice-carousel" style={{ marginBottom: 12 }}>
      <Carousel autoplay autoplaySpeed={5000} dots={notices.length > 1} style={{ height: CAROUSEL_HEIGHT_PX }}>
        {notices.map((n) => (
          <div key={n.id}>
            <Flex
              role="button"
              tabIndex={0}
              align="center"
              gap={12}
              onClick={() => open(n)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && open(n)}
              style={{ height: CAROUSEL_HEIGHT_PX, padding: '0 16px', cursor: 'pointer', background: 'rgba(64,158,255,0.08)', borderRadius: 8, overflow: 'hidden' }}
            >
              {n.photo_url && <img src={n.photo_url} alt="" style={{ height: 54, width: 54, objectFit: 'cover', borderRadius: 4 }} />}
              <Flex vertical style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis>
                  {n.title}
                </Typography.Text>
                <Typography.Text type="secondary" ellipsis>
                  {n.description}
                </Typography.Text>
              </Flex>
            </Flex>
          </div>
        ))}
      </Carousel>
    </section>
  );
}
