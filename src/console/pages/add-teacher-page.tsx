/**
 * /add_teacher/ (000 2.1 open route; 001 7.2 POST {city}/api/users/add_teacher/): the teacher
 * registration form. The page opens without a session (a link may carry `city` and `school` in its
 * query), but the server registers a teacher only for a manager of the city (Administrator, or an
 * Operator of it): without one its 401/403 message is shown. A username already of the city becomes
 * that school's Teacher; a new one needs an e-mail.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Form, Input, InputNumber } from 'antd';
import { isApiError } from '../providers/api-error';
import { request } from '../providers/http';
import { getCity } from '../providers/session';
import { OpenPageFrame } from './open-page-frame';

interface TeacherForm {
  city: string;
  school: number;
  username: string;
  email?: string;
  name?: string;
  password?: string;
}

/** POST /{city}/api/users/add_teacher/ (001 7.2). */
export function addTeacherPath(city: string): string {
  return `/${encodeURIComponent(city)}/api/users/add_teacher/`;
}

export function AddTeacherPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form] = Form.useForm<TeacherForm>();
  const [outcome, setOutcome] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const school = Number(params.get('school'));
  const initial = { city: params.get('city') ?? getCity() ?? '', school: Number.isInteger(school) && school > 0 ? school : undefined };
  const required = [{ required: true, whitespace: true, message: t('access.addTeacher.required') }];

  const submit = async ({ city, ...body }: TeacherForm) => {
    setBusy(true);
    setOutcome(null);
    try {
      await request(addTeacherPath(city.trim()), { method: 'POST', body, refreshOn401: false });
      setOutcome({ type: 'success', text: t('access.addTeacher.done') });
      form.resetFields(['username', 'email', 'name', 'password']);
    } catch (e) {
      if (isApiError(e) && e.fields) {
        form.setFields(Object.entries(e.fields).map(([name, errors]) => ({ name: name as keyof TeacherForm, errors })));
      }
      setOutcome({ type: 'error', text: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <OpenPageFrame title={t('access.addTeacher.title')}>
      <p style={{ marginTop: 0, color: 'rgba(0,0,0,0.65)' }}>{t('access.addTeacher.intro')}</p>
      {outcome && <Alert type={outcome.type} message={outcome.text} showIcon style={{ marginBottom: 16 }} role="alert" />}
      <Form<TeacherForm> form={form} layout="vertical" requiredMark initialValues={initial} onFinish={submit}>
        <Form.Item label={t('access.addTeacher.city')} name="city" rules={required}>
          <Input />
        </Form.Item>
        <Form.Item label={t('access.addTeacher.school')} name="school" rules={[{ required: true, message: t('access.addTeacher.required') }]}>
          <InputNumber min={1} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label={t('access.addTeacher.username')} name="username" rules={required}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item label={t('access.addTeacher.email')} name="email">
          <Input type="email" autoComplete="off" />
        </Form.Item>
        <Form.Item label={t('access.addTeacher.name')} name="name">
          <Input />
        </Form.Item>
        <Form.Item label={t('access.addTeacher.password')} name="password">
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>
          {t('access.addTeacher.submit')}
        </Button>
      </Form>
    </OpenPageFrame>
  );
}
