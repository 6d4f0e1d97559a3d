/**
 * The list of conversations (000 2.2 `chat` for Operators and Administrators, the Advertiser's own,
 * the Teacher's `group/chat/`): each with the shop's image and name (or the class and teacher), the
 * last message, its relative time (001 9 thresholds) and the caller's unread count as a badge; the
 * most recent first, 20 a page; it follows the city's live chat events.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Avatar, Badge, List, Typography } from 'antd';
import { ShopOutlined, TeamOutlined } from '@ant-design/icons';
import { useNow } from '../../hooks/use-now';
import { formatRelative } from '../../resources/format-value';
import { CHAT_PAGE_SIZE, shownImage, listConversations, type ChatConversation, type ChatMessage } from './chat-api';
import { chatErrorText } from './chat-errors';
import { useChatStream } from './use-chat-stream';

/** A one-line summary of a message: its text, or that it is an image, or that it was deleted. */
export function messageSummary(m: ChatMessage | null, t: (key: string) => string): string {
  if (!m) return t('chat.noMessages');
  if (m.deleted) return t('chat.deleted');
  return m.text || (m.image_url ? t('chat.image') : '');
}

export interface ChatListProps {
  city: string;
  kind: 'shop' | 'class';
  /** Opens a conversation; without it the rows are not links (the Administrator's list). */
  onOpen?: (c: ChatConversation) => void;
}

export function ChatList({ city, kind, onOpen }: ChatListProps) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  // The shared clock ticks every 30 s; a message that came since is never "in the future".
  const now = useNow();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{
    content: ChatConversation[];
    total_length: number;
  } | null>(null);
  const load = useCallback(() => {
    listConversations(city, {
      kind,
      limit: CHAT_PAGE_SIZE,
      offset: (page - 1) * CHAT_PAGE_SIZE,
    })
      .then(setData)
      .catch((err: unknown) => void message.error(chatErrorText(err, t)));
  }, [city, kind, page, message, t]);
  useEffect(load, [load]);
  useChatStream(city, load);

  return (
    <div data-testid="chat-list">
      <List<ChatConversation>
        loading={data === null}
        itemLayout="horizontal"
        dataSource={data?.content ?? []}
        locale={{ emptyText: t('chat.empty') }}
        pagination={
          data && data.total_length > CHAT_PAGE_SIZE
            ? {
                current: page,
                pageSize: CHAT_PAGE_SIZE,
                total: data.total_length,
                onChange: setPage,
                showSizeChanger: false,
              }
            : false
        }
        renderItem={(c) => {
          const name = c.kind === 'shop' ? (c.shop_name ?? t('chat.unknownShop')) : `${c.class_name ?? ''}（${c.teacher_name ?? ''}）`;
          const last = c.last_message;
          return (
            <List.Item
              data-testid={`chat-conversation-${c.id}`}
              onClick={onOpen ? () => onOpen(c) : undefined}
              style={{
                cursor: onOpen ? 'pointer' : 'default',
                paddingInline: 12,
              }}
              extra={
                last ? (
                  <Typography.Text type="secondary" title={last.created_at} style={{ whiteSpace: 'nowrap' }}>
                    {/* eslint-disable-next-line react-hooks/purity -- a relative time is measured when the row renders; the React Compiler leaves this component as written */}
                    {formatRelative(last.created_at, t, Math.max(now, Date.now()))}
                  </Typography.Text>
                ) : null
              }
            >
              <List.Item.Meta
                avatar={
                  <Badge count={c.unread} overflowCount={99} data-testid="chat-unread">
                    {/* Avatar shows the icon when there is no image of ours or it cannot be loaded. */}
                    <Avatar shape="square" size={48} src={shownImage(c.shop_image)} icon={c.kind === 'shop' ? <ShopOutlined /> : <TeamOutlined />} alt="" />
                  </Badge>
                }
                title={onOpen ? <Typography.Link>{name}</Typography.Link> : name}
                description={
                  <Typography.Text ellipsis style={{ maxWidth: 560 }}>
                    {messageSummary(last, t)}
                  </Typography.Text>
                }
              />
            </List.Item>
          );
        }}
      />
    </div>
  );
}
