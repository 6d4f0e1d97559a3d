/**
 * The dialog naming a saved view (save as, rename; ./saved-views-bar). Its own chunk: antd's Form
 * loads only when a user names a view, not with every list (docs/performance.md 'What each page loads').
 */
import { useTranslation } from 'react-i18next';
import { Form, Input, Modal } from 'antd';

export interface SavedViewNameDialogProps {
  title: string;
  name: string;
  onName: (name: string) => void;
  /** The server's message on the name, if it refused it. */
  error: string | undefined;
  busy: boolean;
  onSubmit: () => void;
  onCancel: () => void;
}

export function SavedViewNameDialog({ title, name, onName, error, busy, onSubmit, onCancel }: SavedViewNameDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal open title={title} onOk={onSubmit} onCancel={onCancel} okButtonProps={{ loading: busy, disabled: !name.trim() }} destroyOnHidden>
      <Form layout="vertical" onFinish={onSubmit}>
        <Form.Item label={t('lists.views.name')} htmlFor="saved-view-name" validateStatus={error ? 'error' : undefined} help={error}>
          <Input id="saved-view-name" autoFocus maxLength={64} value={name} onChange={(e) => onName(e.target.value)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
