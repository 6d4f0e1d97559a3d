/** The fullscreen toggle of the top bar (000 2.3): the Fullscreen API on the whole document. */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';

export function FullscreenButton() {
  const { t } = useTranslation();
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const on = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', on);
    return () => document.removeEventListener('fullscreenchange', on);
  }, []);
  if (typeof document === 'undefined' || !document.fullscreenEnabled) return null;
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen().catch(() => undefined);
  };
  const label = t(full ? 'shell.fullscreen.exit' : 'shell.fullscreen.enter');
  return <Button type="text" icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggle} aria-label={label} title={label} data-testid="fullscreen" />;
}
