/**
 * The own-account page at /{city}/profile (000 2.2 profile, 2.3 the top bar's profile link): the
 * signed-in user's name, e-mail and introduction from the session's profile (GET
 * /default/api/users/account), saved with PUT /{city}/api/users/account; '保存しました。' after a save
 * (001 8), the server's field messages on the fields otherwise. The username and role are shown only;
 * the e-mail's state (verified or not, 000 3) with, while unverified, a button that sends the
 * verification mail again (POST /{city}/api/users/email_verification, 001 7.2). Under it, the
 * security sections (./profile-security.tsx: second factor, passkeys, ログイン中の端末).
 */
import { useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Button, Card, Descriptions, Form, Input, Space, Tag } from 'antd';
import { isStaff, type Profile } from '@/shared/roles';
import { ProfileSecurity } from './profile-security';
import { ApiRequestError } from '../providers/api-error';
import { request } from '../providers/http';
import { setProfile } from '../providers/session';
import { useSessionValue } from '../hooks/use-session';

interface AccountForm {
  name: string;
  email: string;
  introduction: string;
}

export function ProfilePage() {
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const profile = useSessionValue('profile');
  const { message } = AntdApp.useApp();
  const [form] = Form.useForm<AccountForm>();
  const [saving, setSaving] = useState(false);
  const [sending, setSending] = useState(false);
  if (!profile) return null;

  const sendVerification = async () => {
    setSending(true);
    try {
      await request(`/${encodeURIComponent(city)}/api/users/email_verification`, { method: 'POST', body: {} });
      void message.success(t('shell.profile.verificationSent'));
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setSending(false);
    }
  };
  const emailState = profile.email_verified ? (
    <Tag color="success">{t('shell.profile.emailVerified')}</Tag>
  ) : (
    <Space wrap>
      <Tag color="warning">{t('shell.profile.emailUnverified')}</Tag>
      <Button size="small" onClick={() => void sendVerification()} loading={sending}>
        {t('shell.profile.sendVerification')}
      </Button>
    </Space>
  );

  const save = async (values: AccountForm) => {
    setSaving(true);
    try {
      const next = await request<Profile>(`/${encodeURIComponent(city)}/api/users/account`, { method: 'PUT', body: values });
      if (next) setProfile(next);
      void message.success(t('messages.saved'));
    } catch (e) {
      if (e instanceof ApiRequestError && e.fields) {
        form.setFields(Object.entries(e.fields).map(([name, errors]) => ({ name: name as keyof AccountForm, errors })));
      } else void message.error((e as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Card title={t('layout.profile')} style={{ maxWidth: 720 }}>
        <Descriptions
          column={1}
          size="small"
          style={{ marginBottom: 16 }}
          items={[
            { key: 'username', label: t('shell.profile.username'), children: profile.username },
            { key: 'role', label: t('shell.profile.role'), children: profile.permission },
            { key: 'email-state', label: t('shell.profile.emailState'), children: emailState },
          ]}
        />
        <Form<AccountForm>
          form={form}
          layout="vertical"
          initialValues={{ name: profile.name ?? '', email: profile.email ?? '', introduction: profile.introduction ?? '' }}
          onFinish={save}
        >
          <Form.Item name="name" label={t('shell.profile.name')} rules={[{ max: 64 }]}>
            <Input maxLength={64} showCount />
          </Form.Item>
          <Form.Item name="email" label={t('shell.profile.email')} rules={[{ required: true, type: 'email', message: t('shell.profile.emailInvalid') }]}>
            <Input type="email" maxLength={254} />
          </Form.Item>
          <Form.Item name="introduction" label={t('shell.profile.introduction')}>
            <Input.TextArea rows={4} maxLength={5000} showCount />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('actions.save')}
          </Button>
        </Form>
      </Card>
      <ProfileSecurity staff={isStaff(profile)} />
    </>
  );
}
