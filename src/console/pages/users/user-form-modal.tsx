/**
 * The create and edit form of the users page (001 7.2; 000 5 password rules), in a modal: username,
 * e-mail, name, password (required on create; on edit only to change it), permission and the captain
 * flag. The server checks everything; its field errors (a username or e-mail already used: 001 8
 * 'ユーザー名が既に使用されています。 もう一度お試しください。') are shown on the form's fields.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Checkbox, Form, Input, Modal, Select } from 'antd';
import { isApiError } from '../../providers/api-error';
import { permissionChoices, type UserFormValues, type UserRow } from './user-api';
import type { UserCommands } from './use-user-commands';

export interface UserFormModalProps {
  /** null: closed; 'create'; or the user being edited. */
  target: 'create' | UserRow | null;
  callerIsAdministrator: boolean;
  save: UserCommands['save'];
  onClose: () => void;
  onSaved: (user: UserRow) => void;
}

export function UserFormModal({ target, callerIsAdministrator, save, onClose, onSaved }: UserFormModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<UserFormValues>();
  const [saving, setSaving] = useState(false);
  const editing = target !== null && target !== 'create' ? target : null;

  useEffect(() => {
    if (target === null) return;
    form.resetFields();
    if (editing) {
      form.setFieldsValue({
        username: editing.username,
        email: editing.email,
        name: editing.name,
        permission: editing.permission as UserFormValues['permission'],
        is_captain_department: editing.is_captain_department,
      });
    } else form.setFieldsValue({ permission: 'Member', is_captain_department: false });
  }, [target, editing, form]);

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      onSaved(await save(editing ? editing.id : null, values));
    } catch (error) {
      if (isApiError(error) && error.fields) {
        form.setFields(Object.entries(error.fields).map(([name, errors]) => ({ name: name as keyof UserFormValues, errors: Array.isArray(errors) ? errors : [String(errors)] })));
      }
    } finally {
      setSaving(false);
    }
  };

  const required = (field: string) => ({ required: true, message: t('validation.generic.required', { field }) });
  return (
    <Modal
      open={target !== null}
      title={t(editing ? 'users.page.edit' : 'users.page.create')}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={saving}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      forceRender
    >
      <Form form={form} layout="vertical" name="user-form" requiredMark>
        <Form.Item name="username" label={t('users.page.username')} rules={[required('username')]}>
          <Input autoComplete="off" maxLength={150} />
        </Form.Item>
        <Form.Item name="email" label={t('users.page.email')} rules={[{ required: true, message: t('users.validation.emailRequired') }, { type: 'email', message: t('users.validation.emailInvalid') }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="name" label={t('users.page.name')}>
          <Input autoComplete="off" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('users.page.password')}
          extra={editing ? t('users.page.passwordHint') : undefined}
          rules={editing ? [] : [required('password')]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="permission" label={t('users.page.permission')} rules={[required('permission')]}>
          <Select options={permissionChoices(callerIsAdministrator).map((p) => ({ value: p, label: t(`users.roles.${p}`) }))} />
        </Form.Item>
        <Form.Item name="is_captain_department" valuePropName="checked">
          <Checkbox>{t('users.page.captain')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
