/**
 * The live progress of a push on its detail page (000 2.2 notification; 001 7.9): the status and
 * the counts (recipients, delivered, failed, without a device, opened) of a record whose schema has
 * `push_status` and `recipients`, kept up to date over server-sent events from
 * GET /{city}/api/notification/list-notify/{id}/stream (`status` at the opening and at each change;
 * server: src/server/push/push-routes.ts). No polling.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BaseRecord } from '@refinedev/core';
import { Flex, Progress, Statistic, Tag } from 'antd';
import type { ResourceDef } from '@/shared/registry';
import { openLiveStream } from '../providers/live-stream';
import { enumLabelKeys } from './field-kinds';
import { formatNumber } from './format-value';

/** The fields the stream sends. */
const FIELDS = ['push_status', 'recipients', 'delivered', 'failed_count', 'no_device', 'opened'] as const;
const COLORS: Record<string, string> = { queued: 'default', sending: 'processing', sent: 'success', partial: 'warning', failed: 'error', cancelled: 'default' };

/** Whether records of `def` are pushes with a progress. */
export function isPush(def: ResourceDef): boolean {
  return 'push_status' in def.schema.properties && 'recipients' in def.schema.properties;
}

/** The latest status fields of push `id` of `city` while mounted (empty until the first event; nothing when `enabled` is false). */
export function usePushStatus(city: string, id: string, enabled: boolean): Partial<Record<(typeof FIELDS)[number], unknown>> {
  const [live, setLive] = useState<Partial<Record<(typeof FIELDS)[number], unknown>>>({});
  useEffect(() => {
    if (!enabled || !id) return;
    return openLiveStream(`/${encodeURIComponent(city)}/api/notification/list-notify/${encodeURIComponent(id)}/stream`, {
      status: (data) => {
        const d = (data ?? {}) as Record<string, unknown>;
        setLive(Object.fromEntries(FIELDS.filter((f) => f in d).map((f) => [f, d[f]])));
      },
    });
  }, [city, id, enabled]);
  return live;
}

/** The status tag, a progress bar of the delivered and failed recipients, and the counts. */
export function PushSummary({ def, record }: { def: ResourceDef; record: BaseRecord }) {
  const { t, i18n } = useTranslation();
  const props = def.schema.properties;
  const status = String(record.push_status ?? '');
  const statusKey = enumLabelKeys(props.push_status)?.[(props.push_status.enum ?? []).indexOf(status)];
  const n = (f: string) => (typeof record[f] === 'number' ? (record[f] as number) : 0);
  const recipients = n('recipients');
  const done = n('delivered') + n('failed_count') + n('no_device');
  return (
    <Flex vertical gap={12} style={{ marginBottom: 16 }} data-testid="push-summary">
      <Flex align="center" gap={12} wrap>
        <Tag color={COLORS[status] ?? 'default'} data-testid="push-status">
          {statusKey ? t(statusKey) : status}
        </Tag>
        <Progress
          percent={recipients > 0 ? Math.floor((done / recipients) * 100) : 0}
          success={{ percent: recipients > 0 ? Math.floor((n('delivered') / recipients) * 100) : 0 }}
          status={status === 'failed' ? 'exception' : status === 'sending' ? 'active' : 'normal'}
          style={{ flex: 1, minWidth: 200, margin: 0 }}
        />
      </Flex>
      <Flex gap={32} wrap>
        {(['recipients', 'delivered', 'failed_count', 'no_device', 'opened'] as const).map((f) => (
          <Statistic key={f} title={t(props[f]?.title ?? f)} value={n(f)} formatter={(v) => formatNumber(Number(v), i18n.language)} data-testid={`push-${f}`} />
        ))}
      </Flex>
    </Flex>
  );
}
