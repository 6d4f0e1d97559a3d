/**
 * データ点検 (docs/architecture.md 'Changing an entity'; the Administrator's page `data-check`): the
 * stored rows that fail their resource's current schema, per resource, from
 * `GET /{city}/api/data-check/` (src/shared/data-check.ts): how many fail (estimated from a sample of
 * a large table, with a button to read every row), and the first failing rows, each with the field,
 * the rule, its message and a link to the row's form, where it can be corrected and saved.
 */
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Result, Skeleton, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { DATA_CHECK_PATH, DATA_CHECK_SAMPLE, type DataCheckAnswer, type DataCheckFailure, type DataCheckResource } from '@/shared/data-check';
import { fillPath, registry } from '@/shared/registry';
import { request } from '../../providers/http';
import { DATE_TIME_FORMATS } from '../../resources/format-value';
import { PageCard } from '../../resources/page-card';

/** The check of `city` (every resource, sampled), or of one resource with every row read. */
function useDataCheck(city: string, resource: string | null) {
  return useQuery<DataCheckAnswer>({
    queryKey: ['data-check', city, resource],
    queryFn: ({ signal }) => request<DataCheckAnswer>(`${fillPath(DATA_CHECK_PATH, { city })}${resource ? `?resource=${encodeURIComponent(resource)}` : ''}`, { signal }),
    enabled: city !== '',
    retry: false,
  });
}

function ResourceFailures({ city, item, onFull }: { city: string; item: DataCheckResource; onFull: (resource: string) => void }) {
  const { t, i18n } = useTranslation();
  const schema = registry.get(item.resource)?.schema;
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Card
      size="small"
      title={t(item.label)}
      data-testid={`data-check-${item.resource}`}
      extra={
        <Flex gap={8} align="center">
          <Typography.Text type="danger">{t('datacheck.failing', { failing: number(item.failing), total: number(item.total) })}</Typography.Text>
          {item.sampled && <Tag>{t('datacheck.estimated', { checked: number(item.checked) })}</Tag>}
          {item.sampled && (
            <Button size="small" onClick={() => onFull(item.resource)}>
              {t('datacheck.checkAll')}
            </Button>
          )}
        </Flex>
      }
    >
      <Table<DataCheckFailure>
        size="small"
        pagination={false}
        rowKey={(f) => `${f.id}-${f.field}-${f.rule}`}
        dataSource={item.failures}
        scroll={{ x: true }}
        columns={[
          { title: t('fields.id'), dataIndex: 'id', width: 80 },
          { title: t('datacheck.city'), dataIndex: 'city', width: 110, render: (c: string) => (c === '*' ? t('datacheck.allCities') : c) },
          { title: t('datacheck.field'), dataIndex: 'field', render: (field: string) => (schema?.properties[field]?.title ? `${t(schema.properties[field].title)} (${field})` : field) },
          { title: t('datacheck.rule'), dataIndex: 'rule', render: (rule: string) => <Typography.Text code>{rule}</Typography.Text> },
          { title: t('datacheck.message'), key: 'message', render: (_: unknown, f) => t(f.key, f.params) },
          {
            title: '',
            key: 'open',
            width: 100,
            render: (_: unknown, f) => (f.path ? <Link to={f.path}>{t('datacheck.correct')}</Link> : <Typography.Text type="secondary">{t('datacheck.noForm', { city })}</Typography.Text>),
          },
        ]}
      />
    </Card>
  );
}

export function DataCheckPage() {
  const { t, i18n } = useTranslation();
  const { city = '' } = useParams();
  const [only, setOnly] = useState<string | null>(null);
  const query = useDataCheck(city, only);
  const answer = query.data;
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <PageCard
      title={t('menu.data-check')}
      extra={
        <Flex gap={8}>
          {only && <Button onClick={() => setOnly(null)}>{t('datacheck.allResources')}</Button>}
          <Button type="primary" loading={query.isFetching} onClick={() => void query.refetch()}>
            {t('datacheck.recheck')}
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{t('datacheck.intro', { sample: number(DATA_CHECK_SAMPLE) })}</Typography.Paragraph>
      {query.isError && <Alert type="error" showIcon message={t('datacheck.failed')} />}
      {query.isLoading && <Skeleton active />}
      {answer && (
        <Flex vertical gap={16}>
          <Typography.Text>
            {t('datacheck.summary', { rows: number(answer.rows_checked), resources: number(answer.resources_checked), at: dayjs(answer.checked_at).format(DATE_TIME_FORMATS.list) })}
          </Typography.Text>
          {answer.resources.length === 0 ? (
            <Result status="success" title={t('datacheck.allGood')} />
          ) : (
            answer.resources.map((item) => <ResourceFailures key={item.resource} city={city} item={item} onFull={setOnly} />)
          )}
        </Flex>
      )}
    </PageCard>
  );
}
