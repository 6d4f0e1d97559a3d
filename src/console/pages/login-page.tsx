/**
 * /login (000 2.1, 001 8): username and password. A username that does not exist shows
 * 'このユーザ名が存在していません。' for 5 s; other failures show the server's message. On success the
 * auth provider says where to go (/{city}/dashboard or /city).
 */
import { useEffect, type CSSProperties } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useInvalidateAuthStore, useLogin } from '@refinedev/core';
import { App as AntdApp, Button, Form, Input } from 'antd';
import { LOGIN_MESSAGE_MS, PASSWORD_MIN } from '@/shared/constants';
import type { AuthActionResponse } from '@refinedev/core';
import { takeReason } from '../providers/session';

/** Plain elements instead of antd Card and Typography keep the login page's JavaScript small. */
const styles = {
  page: { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f0f2f5', padding: 16 },
  card: { width: '100%', maxWidth: 400, background: '#fff', borderRadius: 8, padding: '32px 24px', boxShadow: '0 1px 2px rgba(0,0,0,0.06), 0 1px 6px rgba(0,0,0,0.08)' },
  title: { fontSize: 24, fontWeight: 600, textAlign: 'center', margin: '0 0 8px', color: 'rgba(0,0,0,0.88)' },
  subtitle: { textAlign: 'center', margin: '0 0 24px', color: 'rgba(0,0,0,0.65)' },
} satisfies Record<string, CSSProperties>;

interface Credentials {
  username: string;
  password: string;
}

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const { message } = AntdApp.useApp();
  const navigate = useNavigate();
  const invalidateAuth = useInvalidateAuthStore();

  const showError = (text: string) => {
    message.open({ type: 'error', content: text, duration: LOGIN_MESSAGE_MS / 1000, key: 'login-error' });
  };

  useEffect(() => {
    const reason = takeReason();
    // an i18n key (deny flows), or a message as it came (a failed user-info fetch, 001 8)
    if (reason) showError(i18n.exists(reason) ? t(reason) : reason);
    // only once, when the page opens after a forced sign-out
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const { mutate: login, isPending } = useLogin<Credentials>({
    mutationOptions: {
      onSuccess: (res: AuthActionResponse) => {
        if (!res.success) {
          showError(res.error?.message || t('errors.server_error'));
          return;
        }
        message.destroy('login-error');
        invalidateAuth();
        navigate(res.redirectTo ?? '/', { replace: true });
      },
      onError: (e: { message?: string }) => showError(e.message || t('errors.server_error')),
    },
  });

  return (
    <main style={styles.page}>
      <section style={styles.card} aria-labelledby="login-title">
        <h1 id="login-title" style={styles.title}>
          {t('app.title')}
        </h1>
        <p style={styles.subtitle}>{t('login.title')}</p>
        <Form<Credentials> layout="vertical" requiredMark={false} onFinish={(v) => login(v)} autoComplete="on">
          <Form.Item label={t('login.username')} name="username" rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
            <Input autoComplete="username" autoFocus size="large" />
          </Form.Item>
          <Form.Item
            label={t('login.password')}
            name="password"
            rules={[
              { required: true, message: t('login.passwordRequired') },
              { pattern: new RegExp(`^\\S{${PASSWORD_MIN},}$`), message: t('login.passwordRule', { min: PASSWORD_MIN }) },
            ]}
          >
            <Input.Password autoComplete="current-password" size="large" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={isPending}>
            {t('login.submit')}
          </Button>
        </Form>
      </section>
    </main>
  );
}
