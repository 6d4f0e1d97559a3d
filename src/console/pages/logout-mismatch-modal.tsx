/**
 * The logout mismatch modal (000 4 Logout, 001 8): 'Invalid form authenticity token. (Browser auto
 * reload after 5s)' with a Reload button; the page reloads after LOGOUT_RELOAD_MS whatever the user
 * does. Shown when the auth provider found the session cookie to be another user's.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Modal } from 'antd';
import { LOGOUT_RELOAD_MS, logoutMismatchRaised, subscribeLogoutMismatch } from '../providers/logout-mismatch';

const reload = () => globalThis.location.reload();

export function LogoutMismatchModal() {
  const { t } = useTranslation();
  const open = useSyncExternalStore(subscribeLogoutMismatch, logoutMismatchRaised, logoutMismatchRaised);

  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(reload, LOGOUT_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [open]);

  return (
    <Modal
      open={open}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={
        <Button type="primary" onClick={reload}>
          {t('access.mismatch.reload')}
        </Button>
      }
    >
      <p role="alert" style={{ margin: '8px 0 0' }}>
        {t('access.mismatch.message')}
      </p>
    </Modal>
  );
}
