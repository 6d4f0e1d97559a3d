/**
 * The generated detail page of any resource: every schema field with its translated title and its
 * value as the list shows it (images as thumbnails with a full-screen preview, PDFs as links,
 * `x-ref` ids with the referenced row's label), with edit, delete and the record's actions where the
 * ability allows, and the record's QR code where the schema declares a `qrcode` action (./qr-code-panel.tsx) and the app's card where it declares a `preview`
 * action (./preview-card.tsx). Fields the user may not read are not shown (./field-access.ts). A
 * resource whose rows keep revisions has a 履歴 tab beside the details (./revision-history.tsx;
 * docs/architecture.md 'Revisions and the recycle bin'), with この版に戻す where the ability allows
 * the update.
 */
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useOne, type BaseRecord } from '@refinedev/core';
import { useAbility } from '@casl/react';
import { Button, Card, Flex, Result, Tabs, Typography } from 'antd';
import type { AppAbility } from '@/shared/ability';
import { keepsRevisions } from '@/shared/revisions';
import { errorNotification } from '../providers/error-notification';
import { Loading } from '../components/loading';
import { cityPath } from './city-path';
import { ShowBody } from './show-body';
import { QrCodePanel, qrAction } from './qr-code-panel';
import { PreviewCardPanel, previewAction } from './preview-card';
import { RecordActions, useRecordActionSet } from './record-actions';
import { useRecordCommands } from './record-commands';
import type { ResourceRoute } from './resource-routes';
import { isPush, PushSummary, usePushStatus } from './push-status';
import { useFieldAccess } from './field-access';
import { RevisionHistory } from './revision-history';

export function ResourceShow({ route }: { route: ResourceRoute }) {
  const { def } = useFieldAccess(route.resource);
  const ability = useAbility<AppAbility>();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { city = '', id = '' } = useParams();
  const { query, result } = useOne<BaseRecord>({ resource: route.identifier, id, meta: { city }, errorNotification });
  const backToList = () => navigate(cityPath(city, route.list));
  const actionSet = useRecordActionSet(route, city, useRecordCommands(route, city), { show: false });
  // A push's status and counts follow its delivery live (./push-status.tsx).
  const push = isPush(def);
  const live = usePushStatus(city, id, push);

  if (query.isLoading) return <Loading />;
  if (!result) return <Result status="404" subTitle={t('pages.notFound')} extra={<Button onClick={backToList}>{t('actions.list')}</Button>} />;

  const details = (
    <>
      {push && <PushSummary def={def} record={{ ...result, ...live }} />}
      <ShowBody def={def} record={push ? { ...result, ...live } : result} city={city} />
      {previewAction(def) && <PreviewCardPanel def={def} city={city} id={result.id ?? id} />}
      {qrAction(def) && <QrCodePanel def={def} city={city} id={result.id ?? id} name={String(result.name ?? result.title ?? result.id ?? id)} />}
    </>
  );
  return (
    <Card>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('pages.showTitle', { resource: t(route.title) })}
        </Typography.Title>
        <Flex gap={8} wrap>
          <Button size="small" onClick={backToList}>
            {t('actions.list')}
          </Button>
          <RecordActions set={actionSet} id={result.id ?? id} onDeleted={backToList} record={result} />
        </Flex>
      </Flex>
      {keepsRevisions(def) ? (
        <Tabs
          items={[
            { key: 'details', label: t('history.tabs.details'), children: details },
            {
              key: 'history',
              label: t('history.tabs.history'),
              children: (
                <RevisionHistory
                  def={def}
                  identifier={route.identifier}
                  city={city}
                  id={result.id ?? id}
                  version={typeof result.version === 'number' ? result.version : undefined}
                  canRestore={!!def.api.update && ability.can('update', def.name)}
                />
              ),
            },
          ]}
        />
      ) : (
        details
      )}
    </Card>
  );
}
