/**
 * The composer of a conversation: text of at most 2,000 characters with its counter 'current / max'
 * (000 2.3), an image through the upload checks (000 5 Files: jpg, jpeg, png, gif up to 15 MB; the
 * server checks the bytes again), Enter sends (Shift+Enter a new line).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Button, Flex, Tag, Typography, Upload } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import { Sender } from '@ant-design/x';
import { acceptAttribute, checkFile, uploadFile } from '../../resources/upload';
import { CHAT_TEXT_MAX, sendMessage, type ChatMessage } from './chat-api';
import { chatErrorText } from './chat-errors';

export interface ChatComposerProps {
  city: string;
  conversationId: number;
  onSent: (m: ChatMessage) => void;
}

export function ChatComposer({ city, conversationId, onSent }: ChatComposerProps) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const [text, setText] = useState('');
  const [image, setImage] = useState<{ name: string; file: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (file: File) => {
    const checked = checkFile(file, 'image');
    if (!checked.ok) {
      message.error(t(checked.problem.key, checked.problem.params));
      return;
    }
    setBusy(true);
    try {
      const stored = await uploadFile(city, file, 'image', () => undefined);
      setImage({
        name: stored.url.slice(stored.url.lastIndexOf('/') + 1),
        file: file.name,
      });
    } catch (err) {
      message.error(chatErrorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    if (busy || (text.trim() === '' && !image)) return;
    setBusy(true);
    try {
      const sent = await sendMessage(city, conversationId, {
        text,
        ...(image ? { image: image.name } : {}),
      });
      setText('');
      setImage(null);
      onSent(sent);
    } catch (err) {
      message.error(chatErrorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={4} style={{ marginTop: 8 }}>
      {image && (
        <Tag closable onClose={() => setImage(null)} data-testid="chat-pending-image" style={{ alignSelf: 'flex-start' }}>
          {image.file}
        </Tag>
      )}
      <Sender
        value={text}
        onChange={(v) => setText(v.slice(0, CHAT_TEXT_MAX))}
        onSubmit={() => void submit()}
        loading={busy}
        placeholder={t('chat.placeholder')}
        submitType="enter"
        prefix={
          <Upload accept={acceptAttribute('image')} showUploadList={false} beforeUpload={(file) => (void pick(file), false)}>
            <Button type="text" icon={<PictureOutlined />} aria-label={t('chat.attachImage')} data-testid="chat-attach" />
          </Upload>
        }
        actions={(_, info) => {
          const { SendButton, LoadingButton } = info.components;
          return busy ? <LoadingButton /> : <SendButton disabled={text.trim() === '' && !image} aria-label={t('chat.send')} />;
        }}
        data-testid="chat-composer"
      />
      <Typography.Text type={text.length >= CHAT_TEXT_MAX ? 'danger' : 'secondary'} style={{ alignSelf: 'flex-end', fontSize: 12 }} data-testid="chat-counter">
        {text.length.toLocaleString('ja-JP')} / {CHAT_TEXT_MAX.toLocaleString('ja-JP')}
      </Typography.Text>
    </Flex>
  );
}
