/**
 * The help-centre notice (000 2.3 'a help-centre notice slides in for 2 seconds'): on entering a city,
 * once per browser session, a small notice pointing to the help centre (the top bar's contact-us)
 * slides in at the bottom left and leaves after HELP_NOTICE_MS. It takes no clicks, so it never
 * covers a control.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QuestionCircleOutlined } from '@ant-design/icons';

export const HELP_NOTICE_MS = 2_000;
const SEEN_KEY = 'help-notice-seen';

function seen(): boolean {
  try {
    return sessionStorage.getItem(SEEN_KEY) === '1';
  } catch {
    return true;
  }
}

export function HelpNotice() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(() => !seen());
  useEffect(() => {
    if (!shown) return;
    try {
      sessionStorage.setItem(SEEN_KEY, '1');
    } catch {
      // no storage: shown again next time
    }
    const timer = setTimeout(() => setShown(false), HELP_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [shown]);
  if (!shown) return null;
  return (
    <div role="status" data-testid="help-notice" className="shell-help-notice">
      <style>{'@keyframes shell-slide-in{from{transform:translateX(-120%)}to{transform:none}}.shell-help-notice{position:fixed;left:16px;bottom:16px;z-index:1000;pointer-events:none;padding:10px 16px;border-radius:8px;background:#304156;color:#fff;box-shadow:0 4px 12px rgba(0,0,0,.2);animation:shell-slide-in .3s ease-out}'}</style>
      <QuestionCircleOutlined /> {t('shell.help.notice')}
    </div>
  );
}
