/**
 * The open pages of the account mails (001 7.1 request_reset_password_operator and
 * reset_password_operator; 7.2 email_verification and {id}/confirm/), at ACCOUNT_PATHS of
 * src/shared/open-routes.ts, without a session or a city:
 * - /forgot-password: asks for the e-mail; the answer is the same whether the address exists (001 7.1).
 * - /reset-password?token=…: a new password; an expired or spent token says so and links back to
 *   /forgot-password.
 * - /verify-email?city=&user=&token=: confirms at once; an expired or spent token says so and offers
 *   to send the verification mail again.
 */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input } from 'antd';
import { ACCOUNT_PATHS } from '@/shared/open-routes';
import { OpenPageLink } from '../components/open-page-link';
import { isApiError } from '../providers/api-error';
import { request } from '../providers/http';
import { OpenPageFrame } from './open-page-frame';

type Outcome = { type: 'success' | 'error'; text: string; expired?: boolean } | null;

function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  return outcome ? <Alert type={outcome.type} message={outcome.text} showIcon style={{ marginBottom: 16 }} role="alert" data-testid="account-outcome" /> : null;
}

function BackToLogin() {
  const { t } = useTranslation();
  return (
    <p style={{ marginTop: 16, textAlign: 'center' }}>
      <OpenPageLink to="/login">{t('access.account.forgot.back')}</OpenPageLink>
    </p>
  );
}

/** /forgot-password: GET /request_reset_password_operator?email= (001 7.1). */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const submit = async ({ email }: { email: string }) => {
    setBusy(true);
    try {
      const answer = await request<{ detail: string }>(`/request_reset_password_operator?email=${encodeURIComponent(email.trim())}`, { refreshOn401: false });
      setOutcome({ type: 'success', text: answer.detail });
    } catch (e) {
      setOutcome({ type: 'error', text: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <OpenPageFrame title={t('access.account.forgot.title')}>
      <p style={{ marginTop: 0, color: 'rgba(0,0,0,0.65)' }}>{t('access.account.forgot.intro')}</p>
      <OutcomeAlert outcome={outcome} />
      <Form layout="vertical" onFinish={submit}>
        <Form.Item label={t('access.account.forgot.email')} name="email" rules={[{ required: true, type: 'email', message: t('access.addTeacher.required') }]}>
          <Input type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('access.account.forgot.submit')}
        </Button>
      </Form>
      <BackToLogin />
    </OpenPageFrame>
  );
}

/** /reset-password?token=: POST /reset_password_operator/ {token, password, confirm} (001 7.1). */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [form] = Form.useForm<{ password: string; confirm: string }>();
  const [outcome, setOutcome] = useState<Outcome>(token ? null : { type: 'error', text: t('access.account.reset.invalid'), expired: true });
  const [busy, setBusy] = useState(false);
  const submit = async (body: { password: string; confirm: string }) => {
    setBusy(true);
    try {
      await request('/reset_password_operator/', { method: 'POST', body: { token, ...body }, refreshOn401: false });
      setOutcome({ type: 'success', text: t('access.account.reset.done') });
    } catch (e) {
      const fields = isApiError(e) ? e.fields : undefined;
      if (fields?.token) setOutcome({ type: 'error', text: t('access.account.reset.invalid'), expired: true });
      else {
        if (fields) form.setFields(Object.entries(fields).map(([name, errors]) => ({ name: name as 'password' | 'confirm', errors })));
        setOutcome({ type: 'error', text: (e as Error).message });
      }
    } finally {
      setBusy(false);
    }
  };
  const done = outcome?.type === 'success';
  return (
    <OpenPageFrame title={t('access.account.reset.title')}>
      <OutcomeAlert outcome={outcome} />
      {outcome?.expired && (
        <p>
          <OpenPageLink to={ACCOUNT_PATHS.forgotPassword}>{t('access.account.reset.again')}</OpenPageLink>
        </p>
      )}
      {!done && !outcome?.expired && (
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item label={t('access.account.reset.password')} name="password" rules={[{ required: true, message: t('access.addTeacher.required') }]}>
            <Input.Password autoComplete="new-password" autoFocus />
          </Form.Item>
          <Form.Item
            label={t('access.account.reset.confirm')}
            name="confirm"
            dependencies={['password']}
            rules={[
              { required: true, message: t('access.addTeacher.required') },
              ({ getFieldValue }) => ({ validator: (_r, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('access.account.reset.mismatch')))) }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={busy}>
            {t('access.account.reset.submit')}
          </Button>
        </Form>
      )}
      <BackToLogin />
    </OpenPageFrame>
  );
}

/** /verify-email?city=&user=&token=: POST /{city}/api/users/{user}/confirm/ {token} (001 7.2), once on opening. */
export function VerifyEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [city, user, token] = [params.get('city') ?? '', params.get('user') ?? '', params.get('token') ?? ''];
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const invalid = { type: 'error' as const, text: t('access.account.verify.invalid'), expired: true };
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    if (!city || !/^\d+$/.test(user) || !token) return setOutcome(invalid);
    request(`/${encodeURIComponent(city)}/api/users/${user}/confirm/`, { method: 'POST', body: { token }, refreshOn401: false }).then(
      () => setOutcome({ type: 'success', text: t('access.account.verify.done') }),
      (e) => setOutcome(isApiError(e) && e.fields?.token ? invalid : { type: 'error', text: (e as Error).message }),
    );
  }, [city, user, token, t]);
  const resend = async ({ email }: { email: string }) => {
    setBusy(true);
    try {
      await request(`/${encodeURIComponent(city || 'default')}/api/users/email_verification`, { method: 'POST', body: { email: email.trim() }, refreshOn401: false });
      setOutcome({ type: 'success', text: t('access.account.verify.sent') });
    } catch (e) {
      setOutcome({ type: 'error', text: (e as Error).message, expired: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <OpenPageFrame title={t('access.account.verify.title')}>
      {outcome ? <OutcomeAlert outcome={outcome} /> : <p>{t('access.account.verify.working')}</p>}
      {outcome?.expired && (
        <Form layout="vertical" onFinish={resend}>
          <Form.Item label={t('access.account.verify.email')} name="email" rules={[{ required: true, type: 'email', message: t('access.addTeacher.required') }]}>
            <Input type="email" autoComplete="email" />
          </Form.Item>
          <Button htmlType="submit" block loading={busy}>
            {t('access.account.verify.again')}
          </Button>
        </Form>
      )}
      <BackToLogin />
    </OpenPageFrame>
  );
}
