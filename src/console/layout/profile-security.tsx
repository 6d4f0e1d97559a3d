/**
 * The security sections of the profile page (docs/architecture.md 'Staff sign-in'), for staff:
 * - 二要素認証: TOTP on or off, recovery codes left; set up (QR code, first code, recovery codes
 *   shown once) or turn off with the password (GET /default/api/users/mfa, POST …/mfa/disable); on a
 *   server without TOTP (`totp_available` false) the catalogue's `totp_unavailable` text instead of set-up;
 *   a secret no configured key opens (`totp_key_mismatch`: MFA_SECRET_KEY changed since the enrolment)
 *   marked unusable, with a warning of what to do and set-up offered again;
 * - パスキー: the user's passkeys, add one under a name, remove one;
 * - ログイン中の端末: the live sessions (browser, system, IP, sign-in, last activity; this device
 *   marked), end one or every other (GET/DELETE /default/api/users/sessions/).
 * Dates in the 001 9 date-time format.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, App as AntdApp, Button, Card, Form, Input, List, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { RecoveryCodes, TotpEnrolment, failureText } from '../components/second-factor';
import { request } from '../providers/http';
import { SECURITY_PATHS, passkeysSupported, registerPasskey, type Passkey } from '../providers/passkeys';
import { formatDateValue } from '../resources/format-value';
import type { SessionInfo } from '@/shared/sessions';

interface Factors {
  totp: boolean;
  /** false: the server cannot keep TOTP secrets (production without MFA_SECRET_KEY); passkeys still work. */
  totp_available: boolean;
  /** true: the enabled TOTP's secret opens under no configured key; its codes are refused (501 totp_key_mismatch). */
  totp_key_mismatch: boolean;
  recovery_codes_left: number;
  passkeys: Passkey[];
}

type SessionRow = SessionInfo;

const when = (v: string | null) => (v ? (formatDateValue('date-time', v, 'detail') ?? v) : '');

/** The second factor and passkeys of the signed-in staff member. */
function FactorSections() {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const [factors, setFactors] = useState<Factors | null>(null);
  const [enrolling, setEnrolling] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [passkeyName, setPasskeyName] = useState('');
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [disableForm] = Form.useForm<{ password: string }>();

  const load = useCallback(async () => setFactors(await request<Factors>(SECURITY_PATHS.mfaStatus)), []);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    void load().catch(() => undefined);
  }, [load]);

  const disable = async ({ password }: { password: string }) => {
    try {
      const { detail } = await request<{ detail: string }>(SECURITY_PATHS.mfaDisable, { method: 'POST', body: { password } });
      void message.success(detail);
      setDisabling(false);
      disableForm.resetFields();
      await load();
    } catch (e) {
      disableForm.setFields([{ name: 'password', errors: [failureText(e, 'password')] }]);
    }
  };

  const addPasskey = async () => {
    if (!passkeyName.trim()) {
      setPasskeyError(t('security.errors.passkeyNameRequired'));
      return;
    }
    setBusy(true);
    setPasskeyError(null);
    try {
      await registerPasskey(passkeyName.trim());
      setPasskeyName('');
      void message.success(t('security.profile.passkeyAdded'));
      await load();
    } catch (e) {
      setPasskeyError(failureText(e, 'credential'));
    } finally {
      setBusy(false);
    }
  };

  const removePasskey = async (id: number) => {
    try {
      await request(`${SECURITY_PATHS.passkeys}/${id}/`, { method: 'DELETE' });
      await load();
    } catch (e) {
      void message.error((e as Error).message);
    }
  };

  if (!factors) return null;
  const mismatch = factors.totp && factors.totp_key_mismatch;
  return (
    <>
      <Card title={t('security.profile.totp')} data-testid="security-totp">
        <Space direction="vertical" style={{ width: '100%' }}>
          <Space wrap>
            <Tag color={mismatch ? 'error' : factors.totp ? 'success' : 'default'} data-testid="totp-state">
              {mismatch ? t('security.profile.totpUnusable') : factors.totp ? t('security.profile.totpOn') : t('security.profile.totpOff')}
            </Tag>
            {factors.totp && <Typography.Text type="secondary">{t('security.profile.codesLeft', { count: factors.recovery_codes_left })}</Typography.Text>}
          </Space>
          {!factors.totp_available && <Alert type="warning" showIcon message={t('errors.totp_unavailable')} data-testid="totp-unavailable" />}
          {mismatch && (
            <Alert type="warning" showIcon message={t('security.profile.totpKeyMismatch')} description={t('security.profile.totpKeyMismatchHelp')} data-testid="totp-key-mismatch" />
          )}
          <Space wrap>
            {factors.totp_available && (
              <Button type={factors.totp && !mismatch ? 'default' : 'primary'} onClick={() => (setCodes(null), setEnrolling(true))}>
                {mismatch ? t('security.profile.totpSetupAgain') : t('security.profile.totpSetup')}
              </Button>
            )}
            {factors.totp && (
              <Button danger onClick={() => setDisabling(true)}>
                {t('security.profile.totpDisable')}
              </Button>
            )}
          </Space>
        </Space>
      </Card>
      <Modal
        open={enrolling}
        title={t('security.enrol.title')}
        footer={codes ? <Button type="primary" onClick={() => setEnrolling(false)}>{t('security.enrol.codesSaved')}</Button> : null}
        onCancel={() => setEnrolling(false)}
        maskClosable={false}
        destroyOnHidden
      >
        {codes ? (
          <RecoveryCodes codes={codes} />
        ) : (
          <TotpEnrolment<{ recovery_codes: string[] }>
            onEnabled={(answer) => {
              setCodes(answer.recovery_codes);
              void load();
            }}
          />
        )}
      </Modal>
      <Modal open={disabling} title={t('security.profile.totpDisable')} onCancel={() => setDisabling(false)} onOk={() => disableForm.submit()} okButtonProps={{ danger: true }} destroyOnHidden>
        <Form form={disableForm} layout="vertical" onFinish={(v) => void disable(v)}>
          <Typography.Paragraph>{t('security.profile.disableConfirm')}</Typography.Paragraph>
          <Form.Item name="password" label={t('security.profile.password')} rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
        </Form>
      </Modal>

      <Card title={t('security.profile.passkeys')} data-testid="security-passkeys">
        <List
          dataSource={factors.passkeys}
          locale={{ emptyText: t('security.profile.noPasskeys') }}
          renderItem={(p) => (
            <List.Item
              actions={[
                <Popconfirm key="remove" title={t('security.profile.passkeyRemoveConfirm')} okText={t('actions.yes')} cancelText={t('actions.no')} onConfirm={() => removePasskey(p.id)}>
                  <Button size="small" danger>
                    {t('security.profile.passkeyRemove')}
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={p.name}
                description={`${t('security.profile.passkeyCreated')}: ${when(p.created_at)} / ${t('security.profile.passkeyLastUsed')}: ${p.last_used_at ? when(p.last_used_at) : t('security.profile.never')}`}
              />
            </List.Item>
          )}
        />
        {passkeysSupported() && (
          <Space.Compact style={{ width: '100%', maxWidth: 480, marginTop: 12 }}>
            <Input
              aria-label={t('security.profile.passkeyName')}
              placeholder={t('security.profile.passkeyNamePlaceholder')}
              value={passkeyName}
              maxLength={64}
              status={passkeyError ? 'error' : undefined}
              onChange={(e) => setPasskeyName(e.target.value)}
            />
            <Button type="primary" loading={busy} onClick={() => void addPasskey()}>
              {t('security.profile.passkeyAdd')}
            </Button>
          </Space.Compact>
        )}
        {passkeyError && (
          <div role="alert" style={{ color: '#ff4d4f', marginTop: 4 }}>
            {passkeyError}
          </div>
        )}
      </Card>
    </>
  );
}

/** ログイン中の端末: the caller's live sessions. */
function SessionsSection() {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const [rows, setRows] = useState<SessionRow[] | null>(null);
  const load = useCallback(async () => setRows((await request<{ content: SessionRow[] }>(SECURITY_PATHS.sessions)).content), []);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    void load().catch(() => undefined);
  }, [load]);

  const end = async (id: number | null) => {
    try {
      if (id === null) {
        const { ended } = await request<{ ended: number }>(SECURITY_PATHS.sessions, { method: 'DELETE' });
        void message.success(t('security.profile.ended', { count: ended }));
      } else await request(`${SECURITY_PATHS.sessions}${id}/`, { method: 'DELETE' });
      await load();
    } catch (e) {
      void message.error((e as Error).message);
    }
  };

  return (
    <Card
      title={t('security.profile.sessions')}
      data-testid="security-sessions"
      extra={
        <Popconfirm title={t('security.profile.endOthersConfirm')} okText={t('actions.yes')} cancelText={t('actions.no')} onConfirm={() => end(null)}>
          <Button danger disabled={!rows || rows.every((r) => r.current)}>
            {t('security.profile.endOthers')}
          </Button>
        </Popconfirm>
      }
    >
      <Table<SessionRow>
        rowKey="id"
        size="small"
        loading={!rows}
        dataSource={rows ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'browser',
            title: t('security.profile.browser'),
            render: (_, r) => (
              <Space size={4} wrap>
                {r.browser || t('security.profile.unknown')}
                {r.current && <Tag color="blue">{t('security.profile.current')}</Tag>}
              </Space>
            ),
          },
          { key: 'os', title: t('security.profile.os'), render: (_, r) => r.os || t('security.profile.unknown') },
          { key: 'ip', dataIndex: 'ip', title: t('security.profile.ip') },
          { key: 'started_at', title: t('security.profile.startedAt'), render: (_, r) => when(r.started_at) },
          { key: 'last_used_at', title: t('security.profile.lastUsedAt'), render: (_, r) => when(r.last_used_at) },
          {
            key: 'actions',
            title: t('actions.actions'),
            render: (_, r) =>
              r.current ? null : (
                <Popconfirm title={t('security.profile.endSessionConfirm')} okText={t('actions.yes')} cancelText={t('actions.no')} onConfirm={() => end(r.id)}>
                  <Button size="small" danger>
                    {t('security.profile.endSession')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
    </Card>
  );
}

/** The profile page's security sections: the factors for staff, the sessions for everyone. */
export function ProfileSecurity({ staff }: { staff: boolean }) {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%', maxWidth: 960, marginTop: 16 }} aria-label={t('security.profile.title')}>
      {staff && <FactorSections />}
      <SessionsSection />
    </Space>
  );
}
