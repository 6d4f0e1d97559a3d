/**
 * One conversation (000 2.2 `chat/:id/:shopName/img/:imgShop`, the Advertiser's view, the class chat
 * and its history): the newest 20 messages at the bottom, older ones as the reader scrolls up (a
 * cursor: the pages do not move when messages arrive), a separator per day (YYYY年MM月DD日) and each
 * message's time (HH:mm; the full date and time on hover), new messages live, read as they are
 * seen. A participant writes (composer.tsx: at most 2,000 characters with a counter, an image); an
 * Operator deletes a message (it stays, shown as deleted). Text is shown as text, links as safe links.
 */
import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAbility } from '@casl/react';
import { App as AntdApp, Button, Divider, Empty, Image, Popconfirm, Spin, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { Bubble } from '@ant-design/x';
import dayjs from 'dayjs';
import type { AppAbility } from '@/shared/ability';
import { useSessionValue } from '../../hooks/use-session';
import { FORMATS } from '../../resources/format-value';
import { deleteMessage, markRead, pageMessages, type ChatMessage } from './chat-api';
import { chatErrorText } from './chat-errors';
import { ChatComposer } from './chat-composer';
import { ChatText } from './chat-text';
import { useChatStream } from './use-chat-stream';

/** How close to the top (px) the reader scrolls before the older page is read. */
const TOP_MARGIN = 40;

export interface ChatConversationProps {
  city: string;
  conversationId: number;
  /** A participant: marks read and shows the composer (a history is read only). */
  canWrite: boolean;
}

/** Merges messages by id (a live one may also come with a page), oldest first. */
function merge(current: ChatMessage[], more: ChatMessage[]): ChatMessage[] {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of more) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

export function ChatConversationView({ city, conversationId, canWrite }: ChatConversationProps) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const ability = useAbility<AppAbility>();
  const profile = useSessionValue('profile');
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [before, setBefore] = useState<number | null>(null);
  const [loading, setLoading] = useState(true);
  const scroller = useRef<HTMLDivElement>(null);
  // What the next render does to the scroll position: stay at the bottom, or keep the reader's place after an older page.
  const anchor = useRef<{ kind: 'bottom' } | { kind: 'keep'; height: number; top: number } | null>(null);
  const fail = useCallback((err: unknown) => void message.error(chatErrorText(err, t)), [message, t]);
  const read = useCallback(() => {
    if (canWrite) markRead(city, conversationId).catch(fail);
  }, [canWrite, city, conversationId, fail]);

  useEffect(() => {
    let live = true;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    setMessages([]);
    setLoading(true);
    pageMessages(city, conversationId)
      .then((page) => {
        if (!live) return;
        anchor.current = { kind: 'bottom' };
        setMessages(page.content);
        setBefore(page.next_before);
        read();
      })
      .catch(fail)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [city, conversationId, read, fail]);

  useChatStream(city, (kind, m) => {
    if (m.conversation_id !== conversationId) return;
    const el = scroller.current;
    const atBottom = !el || el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (kind === 'message' && (atBottom || m.sender_id === profile?.id)) anchor.current = { kind: 'bottom' };
    setMessages((current) => merge(current, [m]));
    if (kind === 'message' && m.sender_id !== profile?.id) read();
  });

  useLayoutEffect(() => {
    const el = scroller.current;
    const a = anchor.current;
    if (!el || !a) return;
    anchor.current = null;
    el.scrollTop = a.kind === 'bottom' ? el.scrollHeight : el.scrollHeight - a.height + a.top;
  }, [messages]);

  const older = useCallback(() => {
    const el = scroller.current;
    if (!el || before === null || loading) return;
    setLoading(true);
    pageMessages(city, conversationId, before)
      .then((page) => {
        anchor.current = {
          kind: 'keep',
          height: el.scrollHeight,
          top: el.scrollTop,
        };
        setMessages((current) => merge(current, page.content));
        setBefore(page.next_before);
      })
      .catch(fail)
      .finally(() => setLoading(false));
  }, [before, loading, city, conversationId, fail]);

  const remove = (m: ChatMessage) =>
    deleteMessage(city, conversationId, m.id)
      .then((gone) => setMessages((current) => merge(current, [gone])))
      .catch(fail);
  const canDelete = ability.can('delete', 'chat');

  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        height: 'calc(100vh - 260px)',
        minHeight: 360,
      }}
    >
      <div
        ref={scroller}
        data-testid="chat-messages"
        onScroll={(e) => e.currentTarget.scrollTop < TOP_MARGIN && older()}
        style={{
          flex: 1,
          overflowY: 'auto',
          padding: '8px 12px',
          background: 'var(--ant-color-fill-quaternary, #fafafa)',
          borderRadius: 8,
        }}
      >
        {loading && <Spin style={{ display: 'block', margin: '8px auto' }} />}
        {!loading && messages.length === 0 && <Empty description={t('chat.noMessages')} />}
        {messages.map((m, i) => {
          const day = dayjs(m.created_at).format(FORMATS.dateJa);
          const newDay = i === 0 || dayjs(messages[i - 1].created_at).format(FORMATS.dateJa) !== day;
          const mine = m.sender_id !== null && m.sender_id === profile?.id;
          return (
            <Fragment key={m.id}>
              {newDay && (
                <Divider plain data-testid="chat-day">
                  {day}
                </Divider>
              )}
              <Bubble
                data-testid="chat-message"
                data-message-id={m.id}
                placement={mine ? 'end' : 'start'}
                variant={mine ? 'filled' : 'outlined'}
                header={
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {m.sender_name}
                  </Typography.Text>
                }
                content={
                  m.deleted ? (
                    <Typography.Text type="secondary" italic>
                      {t('chat.deleted')}
                    </Typography.Text>
                  ) : (
                    <div>
                      {m.text && <ChatText text={m.text} />}
                      {m.image_url && (
                        <div style={{ marginTop: m.text ? 8 : 0 }}>
                          <Image src={m.image_url} width={200} alt={t('chat.image')} data-testid="chat-image" />
                        </div>
                      )}
                    </div>
                  )
                }
                footer={
                  <span
                    style={{
                      display: 'inline-flex',
                      gap: 8,
                      alignItems: 'center',
                    }}
                  >
                    <Typography.Text type="secondary" style={{ fontSize: 12 }} title={dayjs(m.created_at).format(FORMATS.dateTimeJa)}>
                      {dayjs(m.created_at).format(FORMATS.time)}
                    </Typography.Text>
                    {canDelete && !m.deleted && (
                      <Popconfirm title={t('chat.deleteConfirm')} okText={t('chat.delete')} cancelText={t('chat.cancel')} onConfirm={() => remove(m)}>
                        <Button size="small" type="text" icon={<DeleteOutlined />} aria-label={t('chat.delete')} />
                      </Popconfirm>
                    )}
                  </span>
                }
                styles={{ content: { maxWidth: 520 } }}
                style={{ marginBottom: 12 }}
              />
            </Fragment>
          );
        })}
      </div>
      {canWrite ? (
        <ChatComposer
          city={city}
          conversationId={conversationId}
          onSent={(m) => {
            anchor.current = { kind: 'bottom' };
            setMessages((current) => merge(current, [m]));
          }}
        />
      ) : (
        <Typography.Text type="secondary" style={{ marginTop: 8 }}>
          {t('chat.readOnly')}
        </Typography.Text>
      )}
    </div>
  );
}
