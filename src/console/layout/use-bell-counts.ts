/**
 * The counts of the notification bell (000 2.3, 4 'the bell count adds one per unread admin notice,
 * and the counts of menu, review and matching reports', 6; 001 7.9):
 * - notice: unread admin notices, GET /{city}/api/notify-operator/unread_count/ → {count}; reset by
 *   POST /{city}/api/notify-operator/read/ (every notice of the city marked read);
 * - dish, review: GET /{city}/api/dish-report/notification/ → {dish_report_count,
 *   review_report_count} (a missing field is 0); reset locally: the count seen at the click is kept
 *   in localStorage and only reports beyond it are counted (the reports themselves are marked read
 *   one by one on their list, where they are handled);
 * - matching: GET /{city}/api/matching/notification/ → {count}; reset by POST /{city}/api/matching/read/.
 * Report counts only for Operator, Advertiser and Administrator (000 6), and each line only when the
 * role may read its resource. Counts are read again on every route change; for an Operator, admin
 * notices also arrive live over server-sent events (GET /{city}/api/notify-operator/stream), no
 * polling, and the counts are read again when the stream may have missed some
 * (providers/live-stream.ts). `onNotice` hears each live notice.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import { request } from '../providers/http';
import { openLiveStream } from '../providers/live-stream';
import { useSessionValue } from '../hooks/use-session';

export type BellKind = 'notice' | 'dish' | 'review' | 'matching';
export const BELL_KINDS: readonly BellKind[] = ['notice', 'dish', 'review', 'matching'];

/** A live admin notice as the stream sends it. */
export interface LiveNotice {
  id: number;
  title: string;
  description?: string;
  photo_url?: string;
}

function seenKey(city: string, userId: number | undefined, kind: BellKind): string {
  return `bell-seen:${userId ?? 0}:${city}:${kind}`;
}

function readSeen(key: string): number {
  try {
    return Number(localStorage.getItem(key) ?? 0) || 0;
  } catch {
    return 0;
  }
}

function writeSeen(key: string, n: number): void {
  try {
    localStorage.setItem(key, String(n));
  } catch {
    // no storage: the reset lasts until the next count
  }
}

/** Count shown for a locally reset kind: reports beyond those seen (a handled report lowers the mark). */
export function unseen(total: number, seen: number): { shown: number; seen: number } {
  const mark = Math.min(seen, total);
  return { shown: total - mark, seen: mark };
}

export interface BellCounts {
  /** The kinds this role sees, in order. */
  kinds: BellKind[];
  counts: Record<BellKind, number>;
  total: number;
  /** Resets one kind's count (server or local, see above). */
  reset(kind: BellKind): Promise<void>;
}

export function useBellCounts(city: string, onNotice?: (n: LiveNotice) => void): BellCounts {
  const ability = useAbility<AppAbility>();
  const profile = useSessionValue('profile');
  const { pathname } = useLocation();
  // The one rule set decides (src/shared/specifics.ts FEATURES, the schemas' action roles).
  const reports = ability.can('read', 'feature:report-counts');
  const kinds: BellKind[] = [];
  if (ability.can('read', 'notify_operator')) kinds.push('notice');
  if (reports && ability.can('read', 'dish_report')) kinds.push('dish', 'review');
  if (reports && ability.can('read', 'matching_report#notification')) kinds.push('matching');
  const kindsKey = kinds.join(',');
  const [counts, setCounts] = useState<Record<BellKind, number>>({ notice: 0, dish: 0, review: 0, matching: 0 });
  const base = `/${encodeURIComponent(city)}/api`;
  const userId = profile?.id;
  const countsRef = useRef(counts);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  countsRef.current = counts;
  const noticeRef = useRef(onNotice);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  noticeRef.current = onNotice;

  // `background`: a read again after a stream's break, no use of the session (BACKGROUND_HEADER).
  const load = useCallback(async (background = false) => {
    const want = new Set(kindsKey.split(','));
    const next: Partial<Record<BellKind, number>> = {};
    const jobs: Promise<void>[] = [];
    if (want.has('notice')) jobs.push(request<{ count?: number }>(`${base}/notify-operator/unread_count/`, { background }).then((r) => void (next.notice = Number(r?.count ?? 0))));
    if (want.has('dish')) {
      jobs.push(
        request<{ dish_report_count?: number; review_report_count?: number }>(`${base}/dish-report/notification/`, { background }).then((r) => {
          for (const [kind, total] of [['dish', Number(r?.dish_report_count ?? 0)], ['review', Number(r?.review_report_count ?? 0)]] as const) {
            const key = seenKey(city, userId, kind);
            const { shown, seen } = unseen(total, readSeen(key));
            writeSeen(key, seen);
            next[kind] = shown;
          }
        }),
      );
    }
    if (want.has('matching')) jobs.push(request<{ count?: number }>(`${base}/matching/notification/`, { background }).then((r) => void (next.matching = Number(r?.count ?? 0))));
    await Promise.allSettled(jobs);
    // Unchanged counts keep the state, so the top bar does not render again after every navigation.
    setCounts((c) => (Object.entries(next).every(([kind, n]) => c[kind as BellKind] === n) ? c : { ...c, ...next }));
  }, [base, city, kindsKey, userId]);

  // Every route change (000 4: the others refresh on navigation).
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- state reset or loaded when its inputs change; the React Compiler leaves this function as written
    void load();
  }, [load, pathname]);

  // Live admin notices for an Operator (000 6): the server pushes, the count follows.
  const live = ability.can('read', 'feature:live-notices') && kinds.includes('notice');
  // Notices the stream may have missed (a reconnection, the server's `resync`): the counts are read again.
  const loadRef = useRef(load);
  // eslint-disable-next-line react-hooks/refs -- the latest value kept for callbacks that run after render; the React Compiler leaves this function as written
  loadRef.current = load;
  useEffect(() => {
    if (!live) return;
    return openLiveStream(
      `${base}/notify-operator/stream`,
      {
        notice: (data) => {
          const notice = data as LiveNotice & { read?: boolean };
          if (!notice.read) setCounts((c) => ({ ...c, notice: c.notice + 1 }));
          noticeRef.current?.(notice);
        },
      },
      () => void loadRef.current(true),
    );
  }, [live, base]);

  const reset = useCallback(
    async (kind: BellKind) => {
      if (kind === 'notice') await request(`${base}/notify-operator/read/`, { method: 'POST', body: {} }).catch(() => undefined);
      else if (kind === 'matching') await request(`${base}/matching/read/`, { method: 'POST', body: {} }).catch(() => undefined);
      if (kind === 'dish' || kind === 'review') writeSeen(seenKey(city, userId, kind), readSeen(seenKey(city, userId, kind)) + countsRef.current[kind]);
      setCounts((c) => ({ ...c, [kind]: 0 }));
    },
    [base, city, userId],
  );

  const total = kinds.reduce((s, k) => s + counts[k], 0);
  return { kinds, counts, total, reset };
}
