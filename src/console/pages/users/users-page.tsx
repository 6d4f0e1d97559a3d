/**
 * /{city}/user: the users of the city (000 2.2 `user`, Administrator and Operator; 001 7.2), one
 * hand-written page: a list with search, the `filter_by` select and paging (20 a page); a create and
 * edit form in a modal with the server's field errors on the form; delete after a confirmation,
 * where an answer 209 keeps the entry and shows the server's message.
 */
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useAbility } from '@casl/react';
import { Button, Flex, Select, Table } from 'antd';
import { ListSearch } from '../../components/list-search';
import { PlusOutlined } from '@ant-design/icons';
import type { AppAbility } from '@/shared/ability';
import { PageCard } from '../../resources/page-card';
import { useSessionValue } from '../../hooks/use-session';
import { USER_FILTERS, USERS_PAGE_SIZE, type UserFilter, type UserRow } from './user-api';
import { userColumns } from './user-columns';
import { UserFormModal } from './user-form-modal';
import { useUserCommands } from './use-user-commands';
import { useUsersList } from './use-users-list';

export function UsersPage() {
  const { t } = useTranslation();
  const { city = '' } = useParams();
  const ability = useAbility<AppAbility>();
  const profile = useSessionValue('profile');
  const [search, setSearch] = useState('');
  const [filterBy, setFilterBy] = useState<UserFilter>('all');
  const [page, setPage] = useState(1);
  const [target, setTarget] = useState<'create' | UserRow | null>(null);
  const list = useUsersList({ city, search, filterBy, page });
  const commands = useUserCommands(city);

  const columns = useMemo(
    () =>
      userColumns({
        t,
        canUpdate: ability.can('update', 'user'),
        canDelete: ability.can('delete', 'user'),
        onEdit: setTarget,
        onDelete: async (user) => {
          if (await commands.remove(user)) {
            // The last row of a page gone: show the page before it.
            if (list.rows.length === 1 && page > 1) setPage(page - 1);
            else await list.refetch();
          }
        },
        security: profile?.permission === 'Administrator' ? { onEndSessions: (user) => commands.security(user, 'sessions'), onResetMfa: (user) => commands.security(user, 'mfa') } : undefined,
      }),
    [t, ability, commands, list, page, profile?.permission],
  );

  return (
    <PageCard
      title={t('users.page.title')}
      extra={
        <Flex gap={12} wrap align="center">
          <Select<UserFilter>
            aria-label={t('users.page.filter')}
            value={filterBy}
            style={{ width: 220 }}
            options={USER_FILTERS.map((f) => ({ value: f, label: t(`users.filters.${f}`) }))}
            onChange={(value) => {
              setFilterBy(value);
              setPage(1);
            }}
          />
          <ListSearch
            label={t('actions.search')}
            onSearch={(text) => {
              setSearch(text);
              setPage(1);
            }}
          />
          {ability.can('create', 'user') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget('create')}>
              {t('actions.create')}
            </Button>
          )}
        </Flex>
      }
    >
      <Table<UserRow>
        rowKey="id"
        columns={columns}
        dataSource={list.rows}
        loading={list.loading}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: USERS_PAGE_SIZE, total: list.total, showSizeChanger: false, onChange: setPage }}
      />
      <UserFormModal
        target={target}
        callerIsAdministrator={profile?.permission === 'Administrator'}
        save={commands.save}
        onClose={() => setTarget(null)}
        onSaved={() => {
          setTarget(null);
          void list.refetch();
        }}
      />
    </PageCard>
  );
}
