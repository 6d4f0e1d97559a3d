/**
 * The saved views of a generated list (docs/architecture.md 'Beyond the spec': Saved views): choose one of the user's named views
 * of this list in this city (kept on the server, ./saved-views-api), save the current state under a
 * new name, overwrite, rename, make default or delete the chosen one, and choose the columns shown
 * and their order. On opening a list without query parameters, the default view (else the last used)
 * is put back; choosing a view marks it the last used.
 */
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { App as AntdApp, Button, Dropdown, Flex, Select } from 'antd';
import { MoreOutlined, SaveOutlined } from '@ant-design/icons';
import type { ApiRequestError } from '../providers/api-error';
import { createView, deleteView, fetchViews, initialView, updateView, type ListViewState, type SavedView } from './saved-views-api';

export interface SavedViewsBarProps {
  city: string;
  resource: string;
  /** The list's state now (what 'save' keeps). */
  current: ListViewState;
  /** Puts a view's state on the list. */
  onApply: (state: ListViewState) => void;
  /** Put back the default (or last used) view once the views are loaded. */
  restore: boolean;
}

const SavedViewNameDialog = lazy(() => import('./saved-view-name-dialog').then((m) => ({ default: m.SavedViewNameDialog })));

type Dialog = { kind: 'saveAs' } | { kind: 'rename'; view: SavedView } | null;

/** The option 'no view' (antd's Select takes no null value; saved views' ids start at 1). */
const NO_VIEW = 0;

export function SavedViewsBar({ city, resource, current, onApply, restore }: SavedViewsBarProps) {
  const { t } = useTranslation();
  const { message, modal } = AntdApp.useApp();
  const [views, setViews] = useState<SavedView[]>([]);
  const [chosen, setChosen] = useState<number | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const restored = useRef(false);
  const apply = useRef(onApply);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  apply.current = onApply;

  useEffect(() => {
    let live = true;
    fetchViews(city, resource)
      .then((list) => {
        if (!live) return;
        setViews(list);
        const first = initialView(list);
        if (first && !restored.current) {
          setChosen(first.id);
          if (restore) apply.current(first.state);
        }
        restored.current = true;
      })
      .catch(() => undefined); // a list without saved views still works
    return () => {
      live = false;
    };
  }, [city, resource, restore]);

  const reload = async () => setViews(await fetchViews(city, resource));
  const view = views.find((v) => v.id === chosen);

  const choose = (id: number | null) => {
    setChosen(id);
    const v = views.find((x) => x.id === id);
    if (v) {
      apply.current(v.state);
      void updateView(city, v.id, { used: true }).catch(() => undefined);
    } else apply.current({});
  };

  const fail = (e: unknown) => {
    const err = e as ApiRequestError;
    const field = (err.errors as Record<string, string[]> | undefined)?.name?.[0];
    if (field) setNameError(field);
    else message.error(err.message);
  };

  const submitName = async () => {
    if (!dialog) return;
    setBusy(true);
    try {
      const saved = dialog.kind === 'saveAs' ? await createView(city, resource, name, current) : await updateView(city, dialog.view.id, { name });
      await reload();
      setChosen(saved.id);
      setDialog(null);
      message.success(t('lists.views.saved'));
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };

  const open = (d: Dialog, initial: string) => {
    setName(initial);
    setNameError(undefined);
    setDialog(d);
  };

  const menu = view
    ? [
        { key: 'save', label: t('lists.views.save') },
        { key: 'rename', label: t('lists.views.rename') },
        { key: 'default', label: t('lists.views.makeDefault'), disabled: view.is_default },
        { key: 'delete', label: t('lists.views.delete'), danger: true },
      ]
    : [];

  const onMenu = async (key: string) => {
    if (!view) return;
    try {
      if (key === 'save') {
        await updateView(city, view.id, { state: current });
        message.success(t('lists.views.saved'));
      } else if (key === 'rename') open({ kind: 'rename', view }, view.name);
      else if (key === 'default') await updateView(city, view.id, { is_default: true });
      else if (key === 'delete') {
        const ok = await modal.confirm({ content: t('lists.views.confirmDelete', { name: view.name }), okButtonProps: { danger: true } });
        if (!ok) return;
        await deleteView(city, view.id);
        setChosen(null);
        message.success(t('lists.views.deleted'));
      }
      await reload();
    } catch (e) {
      fail(e);
    }
  };

  return (
    <Flex gap={8} align="center" wrap data-testid="saved-views">
      <Select<number>
        aria-label={t('lists.views.choose')}
        value={chosen ?? NO_VIEW}
        onChange={(id) => choose(id === NO_VIEW ? null : id)}
        style={{ minWidth: 180 }}
        options={[
          { value: NO_VIEW, label: t('lists.views.none') },
          ...views.map((v) => ({ value: v.id, label: v.is_default ? `${v.name}（${t('lists.views.default')}）` : v.name })),
        ]}
      />
      <Button icon={<SaveOutlined />} onClick={() => open({ kind: 'saveAs' }, '')}>
        {t('lists.views.saveAs')}
      </Button>
      {view && (
        <Dropdown menu={{ items: menu, onClick: ({ key }) => void onMenu(key) }} trigger={['click']}>
          <Button icon={<MoreOutlined />} aria-label={t('lists.views.title')} />
        </Dropdown>
      )}
      {dialog && (
        <Suspense fallback={null}>
          <SavedViewNameDialog
            title={dialog.kind === 'rename' ? t('lists.views.rename') : t('lists.views.saveAs')}
            name={name}
            onName={setName}
            error={nameError}
            busy={busy}
            onSubmit={() => void submitName()}
            onCancel={() => setDialog(null)}
          />
        </Suspense>
      )}
    </Flex>
  );
}
