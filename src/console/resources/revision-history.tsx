/**
 * The 履歴 tab of a detail page (docs/architecture.md 'Revisions and the recycle bin'): the record's
 * revisions newest first, 20 a page, as a timeline; each with its operation, when (001 9 detail
 * format, e.g. 2026年04月01日 09:30), who (the name kept with the revision; the server when none) and
 * its changed fields side by side, before → after, labels and values as the detail page shows them
 * (./field-value.tsx: dates, yen, enums, references, thumbnails; user text as text, never HTML); a
 * long text's change word by word (`isLongText`, ./text-diff-cell.tsx, a chunk loaded when one shows).
 * Fields the user may not read are not in the answer (the server leaves them out).
 * With `canRestore` (the ability's update on the resource, as the server checks it) every revision
 * but the newest and a delete has この版に戻す: after a confirmation it writes the record back as it
 * was after that revision (a new revision), then the record and its history reload. A refusal (409:
 * changed since; 400: a value the schema refuses now; 403) is shown as the server says it.
 */
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useInvalidate } from '@refinedev/core';
import { App as AntdApp, Button, Empty, Flex, Pagination, Table, Tag, Timeline, Typography } from 'antd';
import { RollbackOutlined } from '@ant-design/icons';
import type { FieldSchema, ResourceDef } from '@/shared/registry';
import { REVISION_PAGE, type FieldChange, type Revision, type RevisionAuthor } from '@/shared/revisions';
import { isApiError } from '../providers/api-error';
import { Loading } from '../components/loading';
import { FieldValue } from './field-value';
import { formatDateValue } from './format-value';
import { fetchRevisions, restoreRevision } from './revisions-api';
import { fieldKind } from './field-kinds';
import './revision-history.css';

/** Who made a revision or a delete, as the console names them: the display name, else the username, else the server. */
export function authorName(by: RevisionAuthor, t: (key: string) => string): string {
  return by.name || by.username || t('history.server');
}

/** The text of a failed call, as the server said it. */
export function failure(e: unknown): string {
  return isApiError(e) ? e.message : String(e);
}

export interface RevisionHistoryProps {
  /** The resource as the user may read it (./field-access.ts). */
  def: ResourceDef;
  /** Refine's identifier of the route (what the record's queries are kept under). */
  identifier: string;
  city: string;
  id: string | number;
  /** The record's version as shown (the restore's `version`). */
  version: number | undefined;
  canRestore: boolean;
}

const TextDiffCell = lazy(() => import('./text-diff-cell'));

/** A text longer than this many characters (its maximum length) is compared word by word. */
const LONG_TEXT = 200;

/**
 * Whether a change of `prop` from `before` to `after` is shown word by word: two texts of a
 * multi-line field (textarea, richtext) or of a plain text field allowed more than LONG_TEXT characters.
 */
export function isLongText(prop: FieldSchema | undefined, before: unknown, after: unknown): boolean {
  if (!prop || typeof before !== 'string' || typeof after !== 'string') return false;
  const kind = fieldKind(prop);
  return kind === 'textarea' || kind === 'richtext' || (kind === 'text' && (prop.maxLength ?? 0) > LONG_TEXT);
}

function ChangesTable({ def, city, changes }: { def: ResourceDef; city: string; changes: FieldChange[] }) {
  const { t } = useTranslation();
  const plain = (field: string, v: unknown) => <FieldValue prop={def.schema.properties[field]} value={v} size={64} resolveRefs city={city} place="detail" />;
  const cell = (c: FieldChange, side: 'before' | 'after') => {
    const whole = side === 'before' ? <del className="revision-before">{plain(c.field, c.before)}</del> : <ins className="revision-after">{plain(c.field, c.after)}</ins>;
    if (!isLongText(def.schema.properties[c.field], c.before, c.after)) return whole;
    return (
      <Suspense fallback={whole}>
        <TextDiffCell before={c.before as string} after={c.after as string} side={side} />
      </Suspense>
    );
  };
  return (
    <Table<FieldChange>
      size="small"
      rowKey="field"
      pagination={false}
      dataSource={changes}
      className="revision-changes"
      columns={[
        { key: 'field', title: t('history.revisions.field'), width: '24%', render: (_, c) => (def.schema.properties[c.field] ? t(def.schema.properties[c.field].title) : c.field) },
        { key: 'before', title: t('history.revisions.before'), width: '38%', render: (_, c) => cell(c, 'before') },
        { key: 'after', title: t('history.revisions.after'), width: '38%', render: (_, c) => cell(c, 'after') },
      ]}
    />
  );
}

export function RevisionHistory({ def, identifier, city, id, version, canRestore }: RevisionHistoryProps) {
  const { t } = useTranslation();
  const { message, modal } = AntdApp.useApp();
  const invalidate = useInvalidate();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const key = ['revisions', city, def.name, String(id)];
  const { data, isLoading, error } = useQuery({ queryKey: [...key, page], queryFn: () => fetchRevisions(city, def.name, id, page), placeholderData: keepPreviousData });

  const restore = async (r: Revision) => {
    const when = formatDateValue('date-time', r.at, 'detail') ?? r.at;
    const ok = await modal.confirm({
      title: t('history.revisions.confirmTitle'),
      content: t('history.revisions.confirm', { revision: r.revision, when }),
      okText: t('history.revisions.restore'),
      cancelText: t('actions.cancel'),
    });
    if (!ok) return;
    try {
      await restoreRevision(city, def.name, id, r.revision, version ?? 0);
      message.success({ content: t('history.revisions.restored'), key: 'revision-restored' });
    } catch (e) {
      message.error({ content: failure(e), key: 'revision-restored' });
    }
    setPage(1);
    await Promise.all([queryClient.invalidateQueries({ queryKey: key }), invalidate({ resource: identifier, invalidates: ['detail', 'list'], id })]);
  };

  if (isLoading) return <Loading />;
  if (error) return <Typography.Text type="danger">{failure(error)}</Typography.Text>;
  if (!data || data.content.length === 0) return <Empty description={t('history.revisions.none')} />;
  const newest = page === 1 ? data.content[0]?.revision : undefined;

  return (
    <Flex vertical gap={12} data-testid="revision-history">
      <Timeline
        items={data.content.map((r) => ({
          key: r.revision,
          color: r.operation === 'delete' ? 'red' : r.operation === 'create' || r.operation === 'undelete' ? 'green' : 'blue',
          children: (
            <Flex vertical gap={8} data-testid="revision" data-revision={r.revision}>
              <Flex gap={8} wrap align="center" justify="space-between">
                <Flex gap={8} wrap align="center">
                  <Tag>{t(`history.operations.${r.operation}`)}</Tag>
                  <time dateTime={r.at}>{formatDateValue('date-time', r.at, 'detail') ?? r.at}</time>
                  <Typography.Text>{authorName(r.by, t)}</Typography.Text>
                  <Typography.Text type="secondary">{t('history.revisions.number', { revision: r.revision })}</Typography.Text>
                </Flex>
                {canRestore && r.revision !== newest && r.operation !== 'delete' && (
                  <Button size="small" icon={<RollbackOutlined />} onClick={() => void restore(r)} aria-label={t('history.revisions.restoreNumber', { revision: r.revision })}>
                    {t('history.revisions.restore')}
                  </Button>
                )}
              </Flex>
              {r.changes.length > 0 ? <ChangesTable def={def} city={city} changes={r.changes} /> : <Typography.Text type="secondary">{t('history.revisions.noChanges')}</Typography.Text>}
            </Flex>
          ),
        }))}
      />
      {data.total_length > REVISION_PAGE && (
        <Pagination simple current={page} pageSize={REVISION_PAGE} total={data.total_length} onChange={setPage} style={{ alignSelf: 'flex-end' }} />
      )}
    </Flex>
  );
}
