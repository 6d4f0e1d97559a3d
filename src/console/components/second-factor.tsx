/**
 * The parts of the second factor the sign-in pages and the profile share (docs/architecture.md
 * 'Staff sign-in'): a six-digit code input that accepts a paste, the TOTP enrolment (QR code drawn
 * with `qrcode`, the secret for manual entry, the first code), and the recovery codes shown once.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Input, Space, Typography } from 'antd';
import { ApiRequestError } from '../providers/api-error';
import { request } from '../providers/http';
import { SECURITY_PATHS } from '../providers/passkeys';

/** The field message of `field` in a failed call, else its message. */
export function failureText(e: unknown, field: string): string {
  if (e instanceof ApiRequestError && e.fields?.[field]?.length) return e.fields[field][0];
  return (e as Error).message;
}

/**
 * Six one-digit cells (antd Input.OTP): typing moves on, a pasted code fills them all; `onComplete`
 * runs when the six are filled. `error` shows under the cells (and clears them for the next try).
 */
export function SixDigitInput({ id, label, error, disabled, onComplete }: { id: string; label: string; error?: string | null; disabled?: boolean; onComplete: (code: string) => void }) {
  const [value, setValue] = useState('');
  // A refused code is cleared for the next try.
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    if (error) setValue('');
  }, [error]);
  return (
    <div role="group" aria-labelledby={`${id}-label`} data-testid={id}>
      <div id={`${id}-label`} style={{ paddingBottom: 8 }}>
        {label}
      </div>
      <Input.OTP
        length={6}
        size="large"
        value={value}
        disabled={disabled}
        status={error ? 'error' : undefined}
        formatter={(s) => s.replace(/\D/g, '')}
        onChange={(v) => {
          setValue(v);
          if (/^\d{6}$/.test(v)) onComplete(v);
        }}
        autoFocus
      />
      <div role={error ? 'alert' : undefined} style={{ minHeight: 22, color: '#ff4d4f' }} data-testid={`${id}-error`}>
        {error}
      </div>
    </div>
  );
}

/** The recovery codes of an enrolment, shown once, with a copy button. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('security.enrol.codesTitle')}
      </Typography.Title>
      <Typography.Paragraph style={{ margin: 0 }}>{t('security.enrol.codesIntro')}</Typography.Paragraph>
      <ol data-testid="recovery-codes" style={{ columns: 2, fontFamily: 'monospace', fontSize: 16, margin: 0, paddingLeft: 24 }}>
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <Button
        onClick={() => {
          void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true), () => undefined);
        }}
      >
        {copied ? t('security.enrol.copied') : t('security.enrol.copy')}
      </Button>
    </Space>
  );
}

/**
 * The TOTP enrolment: asks the server for a secret (with the sign-in's `mfaToken` when enrolling
 * during a sign-in), shows its QR code and the secret, and sends the first code. `onEnabled` gets
 * the server's answer (the recovery codes, and the login answer after a sign-in's enrolment).
 */
export function TotpEnrolment<T extends { recovery_codes: string[] }>({ mfaToken, onEnabled }: { mfaToken?: string; onEnabled: (answer: T) => void }) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<{ secret: string; qr: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const answer = await request<{ secret: string; otpauth_url: string }>(SECURITY_PATHS.totpSetup, { method: 'POST', body: mfaToken ? { mfa_token: mfaToken } : {}, refreshOn401: !mfaToken });
        const { default: QRCode } = await import('qrcode');
        const qr = await QRCode.toDataURL(answer.otpauth_url, { margin: 1, width: 200 });
        if (live) setSetup({ secret: answer.secret, qr });
      } catch (e) {
        if (live) setError((e as Error).message);
      }
    })();
    return () => {
      live = false;
    };
  }, [mfaToken]);

  const enable = async (code: string) => {
    setBusy(true);
    setError(null);
    try {
      onEnabled(await request<T>(SECURITY_PATHS.totpEnable, { method: 'POST', body: { code, ...(mfaToken ? { mfa_token: mfaToken } : {}) }, refreshOn401: !mfaToken }));
    } catch (e) {
      setError(failureText(e, 'code'));
    } finally {
      setBusy(false);
    }
  };

  if (!setup) return error ? <Alert type="error" showIcon message={error} /> : <Typography.Text type="secondary">{t('access.working')}</Typography.Text>;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <img src={setup.qr} alt={t('security.enrol.qrAlt')} width={200} height={200} style={{ display: 'block', margin: '0 auto' }} />
      <div>
        <Typography.Text type="secondary">{t('security.enrol.manual')}</Typography.Text>
        <Typography.Paragraph copyable={{ text: setup.secret }} style={{ fontFamily: 'monospace', wordBreak: 'break-all', margin: 0 }} data-testid="totp-secret">
          {setup.secret}
        </Typography.Paragraph>
      </div>
      <SixDigitInput id="totp-enrol-code" label={t('security.code.label')} error={error} disabled={busy} onComplete={(code) => void enable(code)} />
    </Space>
  );
}
