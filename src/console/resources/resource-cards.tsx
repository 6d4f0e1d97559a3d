/**
 * A list's rows as cards, for windows narrower than 576 px (000 2.3 mobile layout; shops post time
 * sales and coupons from their phones): each card shows the row's title (the schema's `titleField`,
 * else its label field), up to two more columns (`x-resource.list.card`, else the first two list
 * columns that are neither the id, the title nor an image), the first image field as a thumbnail,
 * and the row's actions (./record-actions `RowActions`: the main link and the overflow menu).
 */
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { BaseRecord } from '@refinedev/core';
import { Empty, Pagination, Spin, type PaginationProps } from 'antd';
import type { FieldSchema, ResourceDef } from '@/shared/registry';
import { isRefField } from '@/shared/list-query';
import { FieldValue } from './field-value';
import { isRelativeField } from './format-value';
import { RowActions, type RecordActionSet } from './record-actions';
import { labelField } from './ref-options';
import type { ReferenceLabels } from './reference-labels';
import { ReferenceValue } from './reference-value';

const isImage = (p: FieldSchema | undefined) => !!p && (p['x-widget'] === 'image-url' || p['x-upload']?.kind === 'image' || p['x-upload']?.kind === 'image-or-pdf');

/**
 * What a card of `def` shows: its title field, its (at most two) other columns and its image field
 * (the first image among the list columns, else among all fields; null when none). Pure.
 */
export function cardLayout(def: ResourceDef): { title: string; columns: string[]; image: string | null } {
  const props = def.schema.properties;
  const title = labelField(def);
  const columns = def.list.card ?? def.list.columns.filter((c) => c !== def.idField && c !== title && !isImage(props[c]) && !props[c]?.['x-hidden-in-list']).slice(0, 2);
  const image = def.list.columns.find((c) => isImage(props[c])) ?? Object.keys(props).find((c) => isImage(props[c])) ?? null;
  return { title, columns, image };
}

export interface ResourceCardsProps {
  def: ResourceDef;
  rows: readonly BaseRecord[] | undefined;
  loading: boolean;
  actionSet: RecordActionSet;
  labels: ReferenceLabels;
  pagination: PaginationProps;
  onPage: (page: number, pageSize: number) => void;
}

const Cell = memo(function Cell({ def, field, row, labels }: { def: ResourceDef; field: string; row: BaseRecord; labels: ReferenceLabels }) {
  const prop = def.schema.properties[field];
  if (isRefField(def, field)) return <ReferenceValue resource={prop['x-ref']!} value={row[field]} labels={labels} />;
  return <FieldValue prop={prop} value={row[field]} size={56} relative={isRelativeField(field, prop, def.createdField)} />;
});

export function ResourceCards({ def, rows, loading, actionSet, labels, pagination, onPage }: ResourceCardsProps) {
  const { t } = useTranslation();
  const layout = cardLayout(def);
  const props = def.schema.properties;
  return (
    <Spin spinning={loading}>
      {rows && rows.length === 0 ? (
        <Empty description={t('lists.rows.noRows')} />
      ) : (
        <ul className="resource-cards" aria-label={t('lists.rows.cards')}>
          {(rows ?? []).map((row) => {
            const id = row.id!;
            const titleId = `card-${def.name}-${String(id)}`;
            const title = row[layout.title];
            return (
              <li key={String(id)} className="resource-card" data-row-key={String(id)} aria-labelledby={titleId}>
                {layout.image && row[layout.image] ? (
                  <div className="resource-card-image">
                    <FieldValue prop={props[layout.image]} value={Array.isArray(row[layout.image]) ? (row[layout.image] as unknown[])[0] : row[layout.image]} size={64} />
                  </div>
                ) : null}
                <div className="resource-card-body">
                  <h3 id={titleId} className="resource-card-title">
                    {title === undefined || title === null || title === '' ? `#${String(id)}` : isRefField(def, layout.title) ? <Cell def={def} field={layout.title} row={row} labels={labels} /> : String(title)}
                  </h3>
                  <dl className="resource-card-fields">
                    {layout.columns.map((field) => (
                      <div key={field}>
                        <dt>{t(props[field].title)}</dt>
                        <dd>
                          <Cell def={def} field={field} row={row} labels={labels} />
                        </dd>
                      </div>
                    ))}
                  </dl>
                  <RowActions set={actionSet} id={id} record={row} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pagination {...pagination} simple align="center" onChange={onPage} style={{ marginTop: 12 }} />
    </Spin>
  );
}
