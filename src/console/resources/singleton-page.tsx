/**
 * The settings page of a singleton resource (`singleton: true`: one record per city, show and update
 * without an id): the record's fields, and an edit button (where the ability allows an update)
 * that turns the page into the generated form; saving or cancelling returns to the fields. No list.
 */
import { useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useOne, type BaseRecord } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { Button, Empty } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import { useFieldAccess } from './field-access';
import { errorNotification } from '../providers/error-notification';
import { Loading } from '../components/loading';
import { ResourceForm } from './resource-form';
import type { ResourceRoute } from './resource-routes';
import { ShowBody } from './show-body';
import { PageCard } from './page-card';

/** The id Refine is given for a singleton's record (its paths have no {id}). */
export const SINGLETON_ID = 'singleton';

export function SingletonPage({ route }: { route: ResourceRoute }) {
  const { def } = useFieldAccess(route.resource);
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const [editing, setEditing] = useState(false);
  const { query, result } = useOne<BaseRecord>({
    resource: route.identifier,
    id: SINGLETON_ID,
    meta: { city },
    queryOptions: { enabled: !!def.api.show, retry: false },
    errorNotification: (e) => (e?.statusCode === 404 ? false : errorNotification(e)),
  });
  const canEdit = !!def.api.update && ability.can('update', route.resource);

  if (editing) return <ResourceForm route={route} mode="edit" id={SINGLETON_ID} onDone={() => setEditing(false)} />;
  if (query.isLoading) return <Loading />;

  return (
    <PageCard
      title={t(route.title)}
      extra={
        canEdit && (
          <Button type="primary" icon={<EditOutlined />} onClick={() => setEditing(true)}>
            {t('actions.edit')}
          </Button>
        )
      }
    >
      {result ? <ShowBody def={def} record={result} city={city} /> : <Empty description={t('pages.notFound')} />}
    </PageCard>
  );
}
