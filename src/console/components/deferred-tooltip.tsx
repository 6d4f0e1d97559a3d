/**
 * antd's Tooltip, mounted only once the pointer first enters its child (docs/performance.md 'Rows'):
 * a list shows one per row (the absolute time behind a relative one), and twenty mounted tooltips,
 * each with its trigger and size observer, cost the list page's first frame more than its rows'
 * text. Until then the child renders alone; on entry the tooltip mounts already open, and from
 * then on behaves as antd's.
 */
import { cloneElement, useState, type PointerEvent, type ReactElement, type ReactNode } from 'react';
import { Tooltip } from 'antd';

export function DeferredTooltip({ title, children }: { title: ReactNode; children: ReactElement<{ onPointerEnter?: (e: PointerEvent) => void }> }) {
  const [mounted, setMounted] = useState(false);
  if (mounted) {
    return (
      <Tooltip title={title} defaultOpen>
        {children}
      </Tooltip>
    );
  }
  return cloneElement(children, { onPointerEnter: () => setMounted(true) });
}
