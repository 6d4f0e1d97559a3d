/**
 * The second step of a staff sign-in (docs/architecture.md 'Staff sign-in'), open pages after the
 * password (auth-provider.ts `login`):
 * - /login/mfa: the six-digit code of the authenticator app (a paste fills it), or a recovery code
 *   (the link under it), or the passkey when the user has one; POST /default/api/login/mfa or
 *   /login/passkey, then the sign-in ends as the password's would (`finishSignIn`).
 * - /login/enrol: the enrolment a role of REQUIRE_MFA_ROLES needs before any city page: QR code,
 *   first code, the recovery codes shown once, then on into the console.
 * Without a pending step (a reload, an expired step) both go back to /login.
 */
import { useState, type ReactNode } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Card, Input, Space, Typography } from 'antd';
import { RecoveryCodes, SixDigitInput, TotpEnrolment, failureText } from '../components/second-factor';
import { finishSignIn, pendingSecondStep, type LoginAnswer } from '../providers/auth-provider';
import { request } from '../providers/http';
import { SECURITY_PATHS, passkeysSupported, signInWithPasskey } from '../providers/passkeys';

function StepFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <main style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#f0f2f5', padding: 16 }}>
      <Card style={{ width: '100%', maxWidth: 440 }} aria-labelledby="step-title">
        <Typography.Title level={3} id="step-title" style={{ textAlign: 'center', marginTop: 0 }}>
          {title}
        </Typography.Title>
        {children}
        <p style={{ margin: '16px 0 0', textAlign: 'center' }}>
          <a href="/login">{t('security.code.back')}</a>
        </p>
      </Card>
    </main>
  );
}

/** Ends the sign-in with the answer of the second step and goes where the auth provider says. */
function useFinish(): (answer: LoginAnswer) => Promise<string | null> {
  const navigate = useNavigate();
  return async (answer) => {
    const res = await finishSignIn(answer);
    if (!res.success) return res.error?.message ?? null;
    navigate(res.redirectTo ?? '/', { replace: true });
    return null;
  };
}

/** /login/mfa: the code, a recovery code or a passkey. */
export function MfaCodePage() {
  const { t } = useTranslation();
  const step = pendingSecondStep();
  const finish = useFinish();
  const [mode, setMode] = useState<'totp' | 'recovery'>(step?.methods.includes('totp') ? 'totp' : 'recovery');
  const [recovery, setRecovery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!step || step.enrol) return <Navigate to="/login" replace />;

  const run = async (call: () => Promise<LoginAnswer>, field: string) => {
    setBusy(true);
    setError(null);
    try {
      const failed = await finish(await call());
      if (failed) setError(failed);
    } catch (e) {
      setError(failureText(e, field));
    } finally {
      setBusy(false);
    }
  };
  const sendCode = (code: string) => run(() => request<LoginAnswer>(SECURITY_PATHS.loginMfa, { method: 'POST', body: { mfa_token: step.token, code }, refreshOn401: false }), 'code');
  const hasTotp = step.methods.includes('totp');

  return (
    <StepFrame title={t('security.code.title')}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        {hasTotp && mode === 'totp' && (
          <>
            <Typography.Paragraph style={{ margin: 0 }}>{t('security.code.intro')}</Typography.Paragraph>
            <SixDigitInput id="mfa-code" label={t('security.code.label')} error={error} disabled={busy} onComplete={(code) => void sendCode(code)} />
            <Button type="link" style={{ padding: 0 }} onClick={() => (setMode('recovery'), setError(null))}>
              {t('security.code.useRecovery')}
            </Button>
          </>
        )}
        {hasTotp && mode === 'recovery' && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (recovery.trim()) void sendCode(recovery.trim());
              else setError(t('security.errors.codeRequired'));
            }}
          >
            <Typography.Paragraph>{t('security.code.recoveryIntro')}</Typography.Paragraph>
            <label htmlFor="mfa-recovery" style={{ display: 'block', paddingBottom: 8 }}>
              {t('security.code.recoveryLabel')}
            </label>
            <Input
              id="mfa-recovery"
              size="large"
              value={recovery}
              onChange={(e) => setRecovery(e.target.value)}
              autoComplete="one-time-code"
              placeholder="xxxxx-xxxxx"
              maxLength={32}
              status={error ? 'error' : undefined}
              aria-describedby="mfa-recovery-error"
              autoFocus
            />
            <div id="mfa-recovery-error" role={error ? 'alert' : undefined} style={{ minHeight: 22, color: '#ff4d4f' }}>
              {error}
            </div>
            <Space direction="vertical" style={{ width: '100%' }}>
              <Button type="primary" htmlType="submit" block size="large" loading={busy}>
                {t('security.code.submit')}
              </Button>
              <Button type="link" style={{ padding: 0 }} onClick={() => (setMode('totp'), setError(null))}>
                {t('security.code.useTotp')}
              </Button>
            </Space>
          </form>
        )}
        {step.methods.includes('passkey') && (
          <>
            {!hasTotp && error && <Alert type="error" showIcon message={error} />}
            <Button block size="large" disabled={!passkeysSupported()} loading={busy} onClick={() => void run(() => signInWithPasskey(step.token), 'credential')}>
              {t('security.code.usePasskey')}
            </Button>
          </>
        )}
      </Space>
    </StepFrame>
  );
}

/** /login/enrol: the enrolment REQUIRE_MFA_ROLES asks for, then the recovery codes, then the console. */
export function MfaEnrolPage() {
  const { t } = useTranslation();
  const step = pendingSecondStep();
  const finish = useFinish();
  const [done, setDone] = useState<(LoginAnswer & { recovery_codes: string[] }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!step || !step.enrol) return done ? null : <Navigate to="/login" replace />;

  return (
    <StepFrame title={t('security.enrol.title')}>
      {done ? (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <RecoveryCodes codes={done.recovery_codes} />
          {error && <Alert type="error" showIcon message={error} />}
          <Button type="primary" block size="large" onClick={() => void finish(done).then(setError)}>
            {t('security.enrol.codesSaved')}
          </Button>
        </Space>
      ) : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Paragraph style={{ margin: 0 }}>{t('security.enrol.intro')}</Typography.Paragraph>
          <TotpEnrolment<LoginAnswer & { recovery_codes: string[] }> mfaToken={step.token} onEnabled={setDone} />
        </Space>
      )}
    </StepFrame>
  );
}
