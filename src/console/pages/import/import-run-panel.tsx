/**
 * The import once confirmed, on the upload page (001 7.16): the bytes of the file sent so far (a big
 * file takes a while), then the rows done of the total with a cancel button (asked first: the server
 * rolls back everything the import wrote), and at the end how it ended (success, partial, failed,
 * cancelled) with its counts and links to the history and the import's log.
 */
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Flex, Popconfirm, Progress, Typography } from 'antd';
import { CheckCircleFilled, CloseCircleFilled, ExclamationCircleFilled, InfoCircleFilled, StopOutlined } from '@ant-design/icons';
import type { ImportState, ImportStatus } from '@/shared/csv-import';
import { cityPath } from '../../resources/city-path';
import { formatNumber } from '../../resources/format-value';
import { formatBytes } from './import-api';
import { RowsProgress, rowsProgressText } from './import-status';
import type { SentBytes } from './use-csv-import';

/** The bytes of the file sent so far, with a button that stops sending it (nothing is stored). */
export function SendingProgress({ sent, onCancel }: { sent: SentBytes; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const percent = sent.total > 0 ? Math.floor((sent.loaded / sent.total) * 100) : 0;
  const text = t('imports.progress.sending', { sent: formatBytes(sent.loaded, i18n.language), total: formatBytes(sent.total, i18n.language) });
  return (
    <Flex vertical gap={8} data-testid="sending-progress">
      <Typography.Text>{text}</Typography.Text>
      <Flex gap={16} align="center">
        <Progress percent={percent} status="active" aria-label={text} style={{ flex: 1, margin: 0 }} />
        <Button icon={<StopOutlined />} onClick={onCancel}>
          {t('imports.progress.cancel')}
        </Button>
      </Flex>
    </Flex>
  );
}

// How an ended import reads: an icon in the colour of its status tag (import-status.tsx). antd's
// Result is not used: it brings its 403/404/500 illustrations along (about 8 KB over the wire).
const RESULT_ICON: Record<ImportStatus, ReactNode> = {
  success: <CheckCircleFilled style={{ color: '#237804' }} />,
  partial: <ExclamationCircleFilled style={{ color: '#ad4e00' }} />,
  failed: <CloseCircleFilled style={{ color: '#cf1322' }} />,
  cancelled: <InfoCircleFilled style={{ color: '#595959' }} />,
  processing: <InfoCircleFilled style={{ color: '#0958d9' }} />,
};

export interface ImportRunPanelProps {
  state: ImportState;
  cancelling: boolean;
  onCancel: () => void;
  onAnother: () => void;
}

/** A running import's progress and cancel button, or how it ended. */
export function ImportRunPanel({ state, cancelling, onCancel, onAnother }: ImportRunPanelProps) {
  const { t, i18n } = useTranslation();
  const { city = '' } = useParams();
  const n = (value: number) => formatNumber(value, i18n.language);
  const running = state.status === 'processing';
  const counts = t('imports.result.counts', { total: n(state.total), created: n(state.created), updated: n(state.updated), errors: n(state.errors), warnings: n(state.warnings) });
  const history = cityPath(city, 'import/history');

  return (
    <section aria-live="polite" data-testid="import-run">
      {/* A cancelled import wrote nothing in the end: no bar of rows handled. */}
      {state.status !== 'cancelled' && (
        <Flex vertical gap={8}>
          <Typography.Text>{rowsProgressText(t, i18n.language, state.done, state.total, state.status)}</Typography.Text>
          <Flex gap={16} align="center">
            <div style={{ flex: 1 }}>
              <RowsProgress done={state.done} total={state.total} status={state.status} />
            </div>
            {running && (
              <Popconfirm title={t('imports.progress.cancelConfirm')} okText={t('actions.yes')} cancelText={t('actions.no')} onConfirm={onCancel}>
                <Button danger icon={<StopOutlined />} loading={cancelling}>
                  {t('imports.progress.cancel')}
                </Button>
              </Popconfirm>
            )}
          </Flex>
        </Flex>
      )}
      {!running && (
        <Flex vertical align="center" gap={8} style={{ padding: '32px 16px 8px', textAlign: 'center' }} data-testid="import-result" data-status={state.status}>
          <span style={{ fontSize: 56, lineHeight: 1 }} aria-hidden>
            {RESULT_ICON[state.status]}
          </span>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t(`imports.result.${state.status}`)}
          </Typography.Title>
          <Typography.Text strong>{state.file_name}</Typography.Text>
          <Typography.Text>{counts}</Typography.Text>
          {state.status === 'cancelled' && <Typography.Text>{t('imports.result.rolledBack')}</Typography.Text>}
          <Flex gap={16} wrap justify="center" align="center" style={{ marginTop: 8 }}>
            <Link to={history}>{t('imports.result.history')}</Link>
            <Link to={`${history}?log=${state.id}`}>{t('imports.result.log')}</Link>
            <Button type="primary" onClick={onAnother}>
              {t('imports.result.another')}
            </Button>
          </Flex>
        </Flex>
      )}
    </section>
  );
}
