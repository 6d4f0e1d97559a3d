/**
 * Renders its children only when the session's ability allows `action` on `subject`; otherwise goes
 * to /401 with a noGoBack query (000 4: a route whose role is not allowed).
 */
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useAbility } from '@casl/react';
import type { AppAbility } from '@/shared/ability';
import type { Action } from '@/shared/registry';

export function RequireAbility({ action, subject, children }: { action: Action; subject: string; children: ReactNode }) {
  const ability = useAbility<AppAbility>();
  if (!ability.can(action, subject)) return <Navigate to="/401?noGoBack=true" replace />;
  return <>{children}</>;
}
