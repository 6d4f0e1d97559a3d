/**
 * The QR code of a record on its detail page (001 7.5 advertisement, 7.8 shop member and halloween
 * pass): shown for a resource that declares an action of kind `qrcode` (its image call, README 'QR
 * codes'), with the link it encodes, PNG and SVG downloads and a print button that prints only the
 * code (./qr-code-panel.css). The image is read with the session's cookies and shown from a blob.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Card, Flex, Typography } from 'antd';
import { DownloadOutlined, PrinterOutlined } from '@ant-design/icons';
import { fillPath, type ResourceDef } from '@/shared/registry';
import { requestResponse } from '../providers/http';
import { saveResponse } from './download';
import './qr-code-panel.css';

/** The `qrcode` action of `def`, if it declares one. */
export function qrAction(def: ResourceDef) {
  return def.actions.find((a) => a.kind === 'qrcode' && a.path.includes('{'));
}

export function QrCodePanel({ def, city, id, name }: { def: ResourceDef; city: string; id: string | number; name: string }) {
  const { t } = useTranslation();
  const action = qrAction(def);
  const [image, setImage] = useState<{ src: string; link: string } | null>(null);
  const [failed, setFailed] = useState(false);
  const path = action ? fillPath(action.path, { city, id }) : '';

  useEffect(() => {
    if (!path) return;
    let src = '';
    let live = true;
    requestResponse(`${path}?format=png`).then(
      async (res) => {
        const link = decodeURI(res.headers.get('X-QR-Link') ?? '');
        src = URL.createObjectURL(await res.blob());
        if (live) setImage({ src, link });
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (src) URL.revokeObjectURL(src);
    };
  }, [path]);

  if (!action || failed) return null;
  const download = async (format: 'png' | 'svg') => saveResponse(await requestResponse(`${path}?format=${format}`), `${def.name}-${id}-qr.${format}`);
  const print = () => {
    document.body.classList.add('qr-printing');
    window.addEventListener('afterprint', () => document.body.classList.remove('qr-printing'), { once: true });
    window.print();
  };
  return (
    <Card size="small" title={t('qr.title')} style={{ marginTop: 16 }} data-testid="qr-panel">
      <Flex gap={16} wrap align="center">
        <div className="qr-print-area">
          {image ? <img src={image.src} alt={t('qr.alt', { name })} width={200} height={200} data-testid="qr-image" /> : <div style={{ width: 200, height: 200 }} />}
        </div>
        <Flex vertical gap={8} style={{ minWidth: 0, flex: 1 }}>
          {image?.link && (
            <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
              {t('qr.link')}: {image.link}
            </Typography.Text>
          )}
          <Flex gap={8} wrap>
            <Button icon={<DownloadOutlined />} onClick={() => void download('png')} data-testid="qr-download">
              {t('qr.download')}
            </Button>
            <Button icon={<DownloadOutlined />} onClick={() => void download('svg')}>
              {t('qr.downloadSvg')}
            </Button>
            <Button icon={<PrinterOutlined />} onClick={print}>
              {t('qr.print')}
            </Button>
          </Flex>
        </Flex>
      </Flex>
    </Card>
  );
}
