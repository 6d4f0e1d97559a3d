/**
 * The top bar (000 2.3): the sidebar toggle, the user's name, the language picker and logout.
 */
import { useTranslation } from 'react-i18next';
import { useLogout } from '@refinedev/core';
import { Button, Flex, Layout, Typography } from 'antd';
import { LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { useSession } from '../hooks/use-session';
import { LanguageSwitch } from './language-switch';

export function TopBar({ collapsed, onToggle }: { collapsed: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const { mutate: logout } = useLogout();
  const { profile } = useSession();
  return (
    <Layout.Header style={{ background: '#fff', padding: '0 16px', borderBottom: '1px solid #f0f0f0', height: 56, lineHeight: '56px' }}>
      <Flex justify="space-between" align="center" style={{ height: '100%' }} gap={12}>
        <Button
          type="text"
          icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggle}
          aria-label={t('layout.toggleMenu')}
        />
        <Flex align="center" gap={12} wrap={false} style={{ minWidth: 0 }}>
          <Typography.Text ellipsis style={{ maxWidth: 200 }} data-testid="current-user">
            <UserOutlined /> {profile?.name || profile?.username}
          </Typography.Text>
          <LanguageSwitch />
          <Button icon={<LogoutOutlined />} onClick={() => logout()}>
            {t('actions.logout')}
          </Button>
        </Flex>
      </Flex>
    </Layout.Header>
  );
}
