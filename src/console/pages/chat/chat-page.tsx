/**
 * The chat pages (000 2.2; docs/architecture.md 'Chat'), one component for the menu entries of page
 * `chat`, loaded only on them (page-components.ts): `chat` (the city's conversations with its shops
 * for Operators, also listed for Administrators; an Advertiser's own shops), the hidden detail
 * `chat/:id/:shopName/img/:imgShop`, the Teacher's `group/chat/` (its classes and the open class
 * chat) and the hidden history `group/chat/:classId/:teacherId` (President, Operator: read only).
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Avatar, Card, Flex, Result, Typography } from 'antd';
import { MessageOutlined, ShopOutlined, TeamOutlined } from '@ant-design/icons';
import { effectiveRole } from '@/shared/roles';
import { useSessionValue } from '../../hooks/use-session';
import { cityPath } from '../../resources/city-path';
import type { PageProps } from '../page-props';
import { getConversation, shownImage, listConversations, type ChatConversation } from './chat-api';
import { ChatConversationView } from './chat-conversation';
import { chatErrorText } from './chat-errors';
import { ChatList } from './chat-list';

function Title({ conv }: { conv: ChatConversation }) {
  const name = conv.kind === 'shop' ? conv.shop_name : `${conv.class_name ?? ''}（${conv.teacher_name ?? ''}）`;
  return (
    <Flex gap={12} align="center">
      <Avatar shape="square" size={40} src={shownImage(conv.shop_image)} icon={conv.kind === 'shop' ? <ShopOutlined /> : <TeamOutlined />} alt="" />
      <Typography.Title level={4} style={{ margin: 0 }} data-testid="chat-title">
        {name}
      </Typography.Title>
    </Flex>
  );
}

/** A conversation found by `find`, with its head; a failure or nothing found says so. */
function ConversationCard({ city, find }: { city: string; find: () => Promise<ChatConversation | null> }) {
  const { t } = useTranslation();
  const { message } = AntdApp.useApp();
  const [conv, setConv] = useState<ChatConversation | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    find()
      .then((c) => live && setConv(c))
      .catch((err: unknown) => {
        if (!live) return;
        setConv(null);
        message.error(chatErrorText(err, t));
      });
    return () => {
      live = false;
    };
  }, [find, message, t]);
  if (conv === undefined) return <Card loading />;
  if (conv === null) return <Result status="404" title={t('chat.notFound')} />;
  return (
    <Card title={<Title conv={conv} />}>
      <ChatConversationView city={city} conversationId={conv.id} canWrite={conv.access === 'write'} />
    </Card>
  );
}

export function ChatPage({ entry }: PageProps) {
  const { t } = useTranslation();
  const params = useParams();
  const navigate = useNavigate();
  const profile = useSessionValue('profile');
  const city = params.city ?? '';
  const role = profile ? effectiveRole(profile) : null;
  const key = entry?.key ?? 'chat';
  const [selected, setSelected] = useState<ChatConversation | null>(null);

  const id = Number(params.id);
  const classId = Number(params.classId);
  const teacherId = Number(params.teacherId);
  const findDetail = useCallback(() => getConversation(city, id), [city, id]);
  const findHistory = useCallback(
    () =>
      listConversations(city, {
        kind: 'class',
        class_id: classId,
        teacher_id: teacherId,
      }).then((a) => a.content[0] ?? null),
    [city, classId, teacherId],
  );

  if (key === 'chat-detail') return <ConversationCard key={`d${id}`} city={city} find={findDetail} />;
  if (key === 'group-chat-history') return <ConversationCard key={`h${classId}-${teacherId}`} city={city} find={findHistory} />;
  if (key === 'group-chat') {
    return (
      <Flex gap={16} wrap="wrap" align="flex-start">
        <Card title={t('chat.classes')} style={{ flex: '1 1 280px', maxWidth: 420 }}>
          <ChatList city={city} kind="class" onOpen={setSelected} />
        </Card>
        <div style={{ flex: '3 1 480px', minWidth: 0 }}>
          {selected ? (
            <Card title={<Title conv={selected} />}>
              <ChatConversationView key={selected.id} city={city} conversationId={selected.id} canWrite={selected.access === 'write'} />
            </Card>
          ) : (
            <Card>
              <Result icon={<MessageOutlined />} subTitle={t('chat.pickClass')} />
            </Card>
          )}
        </div>
      </Flex>
    );
  }
  // The route's `:shopName` and `:imgShop` name the shop and its image for people (the page reads both from the API): no slash in a segment.
  const segment = (v: string | null) => encodeURIComponent((v || '-').replaceAll('/', '-'));
  const open = (c: ChatConversation) =>
    navigate(cityPath(city, `chat/${c.id}/${segment(c.shop_name)}/img/${segment(c.shop_image?.slice(c.shop_image.lastIndexOf('/') + 1) ?? null)}`));
  return (
    <Card title={t('chat.title')}>
      <ChatList city={city} kind="shop" onOpen={role === 'Administrator' ? undefined : open} />
    </Card>
  );
}
