/**
 * /login (000 2.1, 001 8): username and password, or a passkey instead (docs/architecture.md 'Staff
 * sign-in'; staff with a second factor go on to /login/mfa). A username that does not exist shows
 * 'このユーザ名が存在していません。' for 5 s; other failures show the server's message. On success the
 * auth provider says where to go (/{city}/dashboard or /city). An open page: no Refine (app.tsx).
 */
import { useEffect, useRef, useState, type ChangeEvent, type CSSProperties, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Input, theme } from 'antd';
import { OpenPageLink } from '../components/open-page-link';
import { LOGIN_MESSAGE_MS, PASSWORD_MIN } from '@/shared/constants';
import { ACCOUNT_PATHS } from '@/shared/open-routes';
import { authProvider, finishSignIn } from '../providers/auth-provider';
import { takeReason } from '../providers/session';

/** Whether this browser has WebAuthn (the passkey button shows only then). */
const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/**
 * Plain elements instead of antd Card, Typography, Form and App keep the login page's JavaScript
 * small (two fields need no form library; the errors are shown as antd's Form.Item shows them).
 */
const styles = {
  page: { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f0f2f5', padding: 16 },
  card: { width: '100%', maxWidth: 400, background: '#fff', borderRadius: 8, padding: '32px 24px', boxShadow: '0 1px 2px rgba(0,0,0,0.06), 0 1px 6px rgba(0,0,0,0.08)' },
  title: { fontSize: 24, fontWeight: 600, textAlign: 'center', margin: '0 0 8px', color: 'rgba(0,0,0,0.88)' },
  subtitle: { textAlign: 'center', margin: '0 0 24px', color: 'rgba(0,0,0,0.65)' },
  field: { marginBottom: 24 },
  label: { display: 'block', paddingBottom: 8, color: 'rgba(0,0,0,0.88)' },
  help: { minHeight: 22, lineHeight: '22px', fontSize: 14 },
  alert: { borderRadius: 8, padding: '8px 12px', marginBottom: 16, lineHeight: '22px' },
} satisfies Record<string, CSSProperties>;

interface Credentials {
  username: string;
  password: string;
}

type FieldErrors = Partial<Record<keyof Credentials, string>>;

/** The form's own rules (000 5): a username that is not blank, a password of PASSWORD_MIN or more non-space characters. */
export function credentialErrors(values: Credentials, t: (key: string, options?: Record<string, unknown>) => string): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.username.trim()) errors.username = t('login.usernameRequired');
  if (!values.password) errors.password = t('login.passwordRequired');
  else if (!new RegExp(`^\\S{${PASSWORD_MIN},}$`).test(values.password)) errors.password = t('login.passwordRule', { min: PASSWORD_MIN });
  return errors;
}

export function LoginPage() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [values, setValues] = useState<Credentials>({ username: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const hide = useRef<ReturnType<typeof setTimeout>>(undefined);

  // A failure shows for LOGIN_MESSAGE_MS (001 9), as the old console's toast did.
  const showError = (text: string) => {
    clearTimeout(hide.current);
    setFailure(text);
    hide.current = setTimeout(() => setFailure(null), LOGIN_MESSAGE_MS);
  };
  useEffect(() => () => clearTimeout(hide.current), []);

  useEffect(() => {
    const reason = takeReason();
    // an i18n key (deny flows), or a message as it came (a failed user-info fetch, 001 8)
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    if (reason) showError(i18n.exists(reason) ? t(reason) : reason);
    // only once, when the page opens after a forced sign-out
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const change = (field: keyof Credentials, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Like antd's Form: a field shown in error is checked again as it changes.
    if (errors[field]) setErrors({ ...errors, [field]: credentialErrors(next, t)[field] });
  };

  // The auth provider's login (the page is outside Refine: app.tsx); the console it leads to starts afresh.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = credentialErrors(values, t);
    setErrors(found);
    if (found.username || found.password) return;
    setPending(true);
    try {
      const res = await authProvider.login(values);
      if (!res.success) {
        showError(res.error?.message || t('errors.server_error'));
        return;
      }
      clearTimeout(hide.current);
      setFailure(null);
      navigate(res.redirectTo ?? '/', { replace: true });
    } catch (err) {
      showError((err as { message?: string }).message || t('errors.server_error'));
    } finally {
      setPending(false);
    }
  };

  // A passkey instead of the password (docs/architecture.md 'Staff sign-in'); the WebAuthn code loads on use.
  const [isPasskeyPending, setPasskeyPending] = useState(false);
  const passkeySignIn = async () => {
    setPasskeyPending(true);
    try {
      const { signInWithPasskey } = await import('../providers/passkeys');
      const res = await finishSignIn(await signInWithPasskey(null));
      if (!res.success) showError(res.error?.message || t('errors.server_error'));
      else navigate(res.redirectTo ?? '/', { replace: true });
    } catch (err) {
      const fields = (err as { fields?: Record<string, string[]> }).fields;
      showError(fields?.credential?.[0] || (err as { message?: string }).message || t('errors.server_error'));
    } finally {
      setPasskeyPending(false);
    }
  };

  // The props that tie a field to its value, its error and the error's text (as antd's Form.Item).
  const fieldProps = (field: keyof Credentials) => ({
    id: `login-${field}`,
    name: field,
    size: 'large' as const,
    value: values[field],
    onChange: (e: ChangeEvent<HTMLInputElement>) => change(field, e.target.value),
    status: errors[field] ? ('error' as const) : undefined,
    'aria-invalid': !!errors[field],
    'aria-describedby': errors[field] ? `login-${field}-help` : undefined,
  });
  const field = (name: keyof Credentials, input: ReactNode) => (
    <div style={styles.field}>
      <label htmlFor={`login-${name}`} style={styles.label}>
        {t(`login.${name}`)}
      </label>
      {input}
      <div id={`login-${name}-help`} role={errors[name] ? 'alert' : undefined} style={{ ...styles.help, color: token.colorError }}>
        {errors[name]}
      </div>
    </div>
  );

  return (
    <main style={styles.page}>
      <section style={styles.card} aria-labelledby="login-title">
        <h1 id="login-title" style={styles.title}>
          {t('app.title')}
        </h1>
        <p style={styles.subtitle}>{t('login.title')}</p>
        {failure && (
          <div role="alert" data-testid="login-error" style={{ ...styles.alert, color: token.colorErrorText, background: token.colorErrorBg, border: `1px solid ${token.colorErrorBorder}` }}>
            {failure}
          </div>
        )}
        <form onSubmit={(e) => void submit(e)} autoComplete="on" noValidate>
          {field('username', <Input {...fieldProps('username')} autoComplete="username" autoFocus />)}
          {field('password', <Input.Password {...fieldProps('password')} autoComplete="current-password" />)}
          <Button type="primary" htmlType="submit" block size="large" loading={isPending}>
            {t('login.submit')}
          </Button>
        </form>
        {passkeysSupported() && (
          <Button block size="large" style={{ marginTop: 12 }} loading={isPasskeyPending} onClick={() => void passkeySignIn()} data-testid="login-passkey">
            {t('security.code.passkeyLogin')}
          </Button>
        )}
        <p style={{ margin: '16px 0 0', textAlign: 'center' }}>
          <OpenPageLink to={ACCOUNT_PATHS.forgotPassword}>{t('access.account.forgot.link')}</OpenPageLink>
        </p>
      </section>
    </main>
  );
}
