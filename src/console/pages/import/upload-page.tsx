/**
 * /{city}/import/upload (000 2.2; 000 5 CSV rules; 001 7.16, 9): an Administrator or Operator brings
 * shops or malls into the city from a CSV file. Choose the kind and download its template, choose a
 * file (checked in the browser: .csv, not empty, at most 10 MB), check it (dry run: counts and
 * problems, nothing written), then import it and watch its progress, with a cancel button, to its end.
 */
import { lazy, Suspense, useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useOnError } from '@refinedev/core';
import { Alert, App as AntdApp, Button, Divider, Flex, Popconfirm, Radio, Typography, Upload } from 'antd';
import { CloudUploadOutlined, DownloadOutlined } from '@ant-design/icons';
import { CSV_IMPORT_MAX_BYTES, type ImportKind } from '@/shared/csv-import';
import { ERROR_TOAST_MS } from '@/shared/constants';
import { cityPath } from '../../resources/city-path';
import { PageCard } from '../../resources/page-card';
import { downloadTemplate, formatBytes, importableRows } from './import-api';
import { useCsvImport } from './use-csv-import';

// What shows once a file is chosen (the check's counts and problems, the progress) is loaded then,
// not with the page: its antd parts (Statistic, Progress, Tag) are not the upload form's.
const loadDryRunPanel = () => import('./dry-run-panel');
const loadRunPanel = () => import('./import-run-panel');
const DryRunPanel = lazy(() => loadDryRunPanel().then((m) => ({ default: m.DryRunPanel })));
const SendingProgress = lazy(() => loadRunPanel().then((m) => ({ default: m.SendingProgress })));
const ImportRunPanel = lazy(() => loadRunPanel().then((m) => ({ default: m.ImportRunPanel })));

const KINDS: ImportKind[] = ['ads', 'mall'];

export function ImportUploadPage() {
  const { t, i18n } = useTranslation();
  const { city = '' } = useParams();
  const { message } = AntdApp.useApp();
  const { mutate: onError } = useOnError();
  const run = useCsvImport(city);
  const { phase, file, dryRun, sent, state } = run;
  const busy = phase === 'checking' || phase === 'sending' || phase === 'running';
  const choosing = phase === 'choose' || phase === 'checking' || phase === 'checked';
  useEffect(() => {
    if (!file) return;
    void loadDryRunPanel();
    void loadRunPanel();
  }, [file]);

  const template = async () => {
    try {
      await downloadTemplate(city, run.kind);
    } catch (e) {
      onError(e);
      message.error({ content: (e as Error).message, duration: ERROR_TOAST_MS / 1000, key: 'import-template' });
    }
  };

  const canImport = phase === 'checked' && !!dryRun && importableRows(dryRun) > 0;
  const importButton = (
    <Button type="primary" disabled={!canImport} loading={phase === 'sending'} onClick={dryRun?.duplicate_of == null ? () => void run.start() : undefined}>
      {t('imports.upload.import')}
    </Button>
  );

  return (
    <PageCard
      title={t('imports.upload.title')}
      extra={
        <Link to={cityPath(city, 'import/history')}>{t('imports.upload.history')}</Link>
      }
    >
      <Typography.Paragraph>{t('imports.upload.intro')}</Typography.Paragraph>
      {choosing && (
        <Flex vertical gap={16}>
          <Flex gap={16} wrap align="center">
            <Typography.Text id="import-kind-label" strong>
              {t('imports.upload.kind')}
            </Typography.Text>
            <Radio.Group
              aria-labelledby="import-kind-label"
              optionType="button"
              buttonStyle="solid"
              value={run.kind}
              disabled={busy}
              onChange={(e) => run.setKind(e.target.value as ImportKind)}
              options={KINDS.map((k) => ({ value: k, label: t(`imports.upload.kinds.${k}`) }))}
            />
            <Button icon={<DownloadOutlined />} onClick={() => void template()}>
              {t('imports.upload.template')}
            </Button>
          </Flex>
          <Typography.Text type="secondary">{t('imports.upload.templateHint')}</Typography.Text>
          {/* No `accept`: rc-upload drops a dropped file that does not match it without a word; checkCsvFile explains. */}
          <Upload.Dragger
            multiple={false}
            showUploadList={false}
            disabled={busy}
            beforeUpload={(chosen) => {
              run.chooseFile(chosen);
              return Upload.LIST_IGNORE;
            }}
          >
            <p className="ant-upload-drag-icon">
              <CloudUploadOutlined />
            </p>
            <p className="ant-upload-text">{t('imports.upload.drop')}</p>
            <p className="ant-upload-hint">{t('imports.upload.dropHint', { max: formatBytes(CSV_IMPORT_MAX_BYTES, i18n.language) })}</p>
          </Upload.Dragger>
          {run.fileProblem && <Alert type="error" showIcon role="alert" message={t(run.fileProblem.key, run.fileProblem.params)} />}
          {file && (
            <Flex gap={12} wrap align="center" data-testid="chosen-file">
              <Typography.Text>{t('imports.upload.file')}:</Typography.Text>
              <Typography.Text strong>{file.name}</Typography.Text>
              <Typography.Text>({formatBytes(file.size, i18n.language)})</Typography.Text>
              {!dryRun && (
                <Button type="primary" loading={phase === 'checking'} disabled={busy} onClick={() => void run.check()}>
                  {t('imports.upload.check')}
                </Button>
              )}
            </Flex>
          )}
        </Flex>
      )}
      {sent && (
        <>
          <Divider />
          <Suspense>
            <SendingProgress sent={sent} onCancel={() => void run.cancel()} />
          </Suspense>
        </>
      )}
      {run.notice && <Alert type="info" showIcon style={{ marginTop: 16 }} message={run.notice} />}
      {run.error && <Alert type="error" showIcon role="alert" style={{ marginTop: 16 }} message={run.error} />}
      {dryRun && (phase === 'checked' || phase === 'sending') && (
        <>
          <Divider />
          <Suspense>
            <DryRunPanel answer={dryRun} />
          </Suspense>
          <Flex gap={12} justify="end" style={{ marginTop: 16 }}>
            <Button disabled={phase === 'sending'} onClick={run.reset}>
              {t('imports.upload.reset')}
            </Button>
            {dryRun.duplicate_of === null ? (
              importButton
            ) : (
              // The same file (SHA-256) was imported before: ask before importing it twice.
              <Popconfirm title={t('imports.dryRun.duplicateAsk')} okText={t('imports.upload.import')} cancelText={t('actions.cancel')} disabled={!canImport} onConfirm={() => void run.start()}>
                {importButton}
              </Popconfirm>
            )}
          </Flex>
        </>
      )}
      {state && (phase === 'running' || phase === 'ended') && (
        <>
          <Divider />
          <Suspense>
            <ImportRunPanel state={state} cancelling={run.cancelling} onCancel={() => void run.cancel()} onAnother={run.reset} />
          </Suspense>
        </>
      )}
    </PageCard>
  );
}
