/**
 * Text for assistive technology only (WCAG 2.5.3 Label in Name): it is read as part of the name of
 * the control around it, after the visible text, and takes no room on the screen.
 */
import type { ReactNode } from 'react';

const HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  clipPath: 'inset(50%)',
  whiteSpace: 'nowrap',
} as const;

/** A span that screen readers read and the screen does not show. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return (
    <span style={HIDDEN} data-visually-hidden="">
      {children}
    </span>
  );
}

