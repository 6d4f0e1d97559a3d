/**
 * RJSF widget of an `x-upload` field (000 5 Files): an antd Upload list with thumbnails for images and
 * links for PDFs. Files are checked before they are sent (type, size, at most `maxItems`) and the
 * refusal is shown; each upload shows its progress; the server's message is shown when it refuses.
 * The field holds the file's URL, or a list of URLs when the field is an array.
 */
import { useRef, useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useOnError } from '@refinedev/core';
import { App as AntdApp, Button, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import type { WidgetProps } from '@rjsf/utils';
import { ERROR_TOAST_MS } from '@/shared/constants';
import type { FieldSchema } from '@/shared/registry';
import { displayKind } from '../format-value';
import { acceptAttribute, checkCount, checkFile, maxFiles, uploadFile, type UploadKind } from '../upload';

function nameOf(url: string): string {
  return url.split('?')[0].split('/').filter(Boolean).at(-1) ?? url;
}

export function UploadWidget({ id, value, disabled, readonly, onChange, schema, options }: WidgetProps) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const { city = '' } = useParams();
  const { mutate: checkError } = useOnError();
  const prop = schema as unknown as FieldSchema;
  const upload = (options.upload ?? prop['x-upload'] ?? { kind: 'image' }) as { kind: UploadKind; maxItems?: number };
  const many = Array.isArray(value) || (Array.isArray(prop.type) ? prop.type.includes('array') : prop.type === 'array');
  const max = maxFiles({ ...prop, 'x-upload': upload });
  const urls: string[] = (Array.isArray(value) ? value : value ? [value] : []).map(String);
  const latest = useRef(urls);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  latest.current = urls;
  const [pending, setPending] = useState<UploadFile[]>([]);
  const off = disabled || readonly;

  const refuse = (text: string) => message.error({ content: text, duration: ERROR_TOAST_MS / 1000, key: `upload-${id}` });
  const setUrls = (next: string[]) => {
    latest.current = next;
    onChange(many ? next : (next.at(-1) ?? options.emptyValue));
  };
  const patch = (uid: string, change: Partial<UploadFile> | null) =>
    setPending((list) => (change ? list.map((f) => (f.uid === uid ? { ...f, ...change } : f)) : list.filter((f) => f.uid !== uid)));

  const fileList: UploadFile[] = [
    ...urls.map((url, i) => ({
      uid: `done-${i}-${url}`,
      name: nameOf(url),
      status: 'done' as const,
      url,
      thumbUrl: displayKind({ ...prop, 'x-upload': upload }, url) === 'image' ? url : undefined,
    })),
    ...pending,
  ];
  const busy = pending.filter((f) => f.status === 'uploading').length;

  return (
    <Upload
      id={id}
      listType="picture"
      accept={acceptAttribute(upload.kind)}
      multiple={many && max > 1}
      disabled={off}
      fileList={fileList}
      beforeUpload={(file, batch) => {
        const checked = checkFile(file, upload.kind);
        if (!checked.ok) {
          refuse(t(checked.problem.key, checked.problem.params));
          return Upload.LIST_IGNORE;
        }
        // A single-file field replaces its file; a list may not grow past maxItems.
        const tooMany = max > 1 || batch.length > 1 ? checkCount(urls.length + busy, batch.length, max) : null;
        if (tooMany) {
          refuse(t(tooMany.key, tooMany.params));
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={({ file }) => {
        const f = file as File & { uid: string };
        const kind = checkFile(f, upload.kind);
        if (!kind.ok) return;
        setPending((list) => [...list, { uid: f.uid, name: f.name, status: 'uploading', percent: 0 }]);
        uploadFile(city, f, kind.kind, (percent) => patch(f.uid, { percent }))
          .then((stored) => {
            patch(f.uid, null);
            setUrls(many ? [...latest.current, stored.url] : [stored.url]);
          })
          .catch((e: Error) => {
            patch(f.uid, { status: 'error', response: e.message });
            checkError(e);
            if ((e as { status?: number }).status !== 403) refuse(e.message);
          });
      }}
      onRemove={(file) => {
        if (file.uid.startsWith('done-')) setUrls(latest.current.filter((u) => u !== file.url));
        else patch(file.uid, null);
        return false;
      }}
      showUploadList={{ showRemoveIcon: !off }}
    >
      {!off && (urls.length + busy < max || max === 1) && <Button icon={<UploadOutlined />}>{t('upload.choose')}</Button>}
    </Upload>
  );
}
