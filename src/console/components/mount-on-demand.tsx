/**
 * A popup (antd's Tooltip or Popconfirm) mounted only once its child is first used
 * (docs/performance.md 'Sidebar click to a list'): a list shows such popups on every row (the absolute time behind a
 * relative one, the delete confirmation), and twenty mounted popups, each with its trigger and size
 * observer, cost the list's first frame more than the rows' text. Until then the child renders
 * alone; on the first pointer entry (`on: 'hover'`) or click (`on: 'click'`) it renders inside
 * `wrap`, which mounts the popup already open (`defaultOpen`); from then on the popup behaves as
 * antd's. A child clicked into its popup gets the focus back (it is a new element), so a keyboard
 * user stays where they were.
 */
import { cloneElement, useState, type ReactElement } from 'react';

type Child = ReactElement<{ onPointerEnter?: () => void; onClick?: () => void; autoFocus?: boolean }>;

export interface MountOnDemandProps {
  on: 'hover' | 'click';
  children: Child;
  /** The child inside its popup, the popup open from the start. */
  wrap: (child: Child) => ReactElement;
}

export function MountOnDemand({ on, children, wrap }: MountOnDemandProps) {
  const [mounted, setMounted] = useState(false);
  if (mounted) return wrap(on === 'click' ? cloneElement(children, { autoFocus: true }) : children);
  return cloneElement(children, on === 'hover' ? { onPointerEnter: () => setMounted(true) } : { onClick: () => setMounted(true) });
}
