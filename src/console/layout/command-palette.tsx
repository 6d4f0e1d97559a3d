/**
 * The command palette (docs/architecture.md 'Beyond the spec'): Ctrl+K (⌘K) opens a search over every page
 * of the current menu and every open tab; arrow keys move, Enter goes, Escape closes. Keyboard-only
 * usable: the input keeps the focus, the list is a listbox whose active option the input names
 * (aria-activedescendant).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Input, Modal, Typography, type InputRef } from 'antd';
import type { PageLink } from './menu-paths';
import type { PageTab } from './use-page-tabs';

interface Choice {
  id: string;
  label: string;
  hint: string;
  href: string;
}

/** Whether `query`'s words all occur in `text` (case-insensitive). */
export function matches(text: string, query: string): boolean {
  const hay = text.toLowerCase();
  return query.toLowerCase().split(/\s+/).filter(Boolean).every((w) => hay.includes(w));
}

export function CommandPalette({ links, tabs, tabTitle }: { links: readonly PageLink[]; tabs: readonly PageTab[]; tabTitle: (pathname: string) => string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<InputRef>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setQuery('');
        setActive(0);
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Built only while the palette is open: tabs change on every navigation.
  const choices = useMemo<Choice[]>(() => {
    if (!open) return [];
    const tabChoices = tabs.map((tab) => ({
      id: `tab:${tab.key}`,
      label: tabTitle(tab.location.pathname),
      hint: t('shell.palette.openTab'),
      href: `${tab.location.pathname}${tab.location.search}`,
    }));
    const pageChoices = links.map((l) => ({ id: `page:${l.key}`, label: l.titles.map((x) => t(x)).join(' / '), hint: t('shell.palette.page'), href: l.path }));
    return [...tabChoices, ...pageChoices].filter((c) => matches(`${c.label} ${c.href}`, query));
  }, [open, tabs, links, query, t, tabTitle]);

  const go = (c: Choice | undefined) => {
    if (!c) return;
    setOpen(false);
    navigate(c.href);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((i) => Math.min(i + 1, choices.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      go(choices[active]);
    }
  };

  return (
    <Modal
      open={open}
      onCancel={() => setOpen(false)}
      afterOpenChange={(o) => o && input.current?.focus()}
      footer={null}
      closable={false}
      title={t('shell.palette.title')}
      destroyOnHidden
      width={560}
    >
      <Input
        ref={input}
        autoFocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        placeholder={t('shell.palette.placeholder')}
        aria-label={t('shell.palette.placeholder')}
        role="combobox"
        aria-expanded
        aria-controls="palette-list"
        aria-activedescendant={choices[active] ? `palette-${active}` : undefined}
        data-testid="palette-input"
      />
      <ul id="palette-list" role="listbox" aria-label={t('shell.palette.title')} style={{ listStyle: 'none', padding: 0, margin: '8px 0 0', maxHeight: 360, overflowY: 'auto' }}>
        {choices.length === 0 && <Typography.Text type="secondary">{t('shell.palette.none')}</Typography.Text>}
        {choices.map((c, i) => (
          <li
            key={c.id}
            id={`palette-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseEnter={() => setActive(i)}
            onClick={() => go(c)}
            style={{ padding: '6px 10px', borderRadius: 6, cursor: 'pointer', display: 'flex', justifyContent: 'space-between', gap: 12, background: i === active ? 'rgba(64,158,255,0.15)' : undefined }}
          >
            <span>{c.label}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {c.hint}
            </Typography.Text>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
