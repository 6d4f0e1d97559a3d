/**
 * The logout check of 000 4 (Logout) and 001 8: when the session cookie belongs to another user than
 * the loaded profile (another tab signed in as somebody else), the console does not sign out but
 * shows the modal 'Invalid form authenticity token. (Browser auto reload after 5s)' and reloads after
 * LOGOUT_RELOAD_MS. A tiny external store: the auth provider raises it, the modal reads it.
 */

/** The reload delay of the logout mismatch modal (001 9: logout reload delay 5 s). */
export const LOGOUT_RELOAD_MS = 5_000;

/** Whether a logout must stop: a profile is loaded and the cookie's user (`ownerId`, null when unknown) is another one. */
export function isLogoutMismatch(profileId: number | null, ownerId: number | null): boolean {
  return profileId !== null && ownerId !== null && profileId !== ownerId;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let raised = false;

/** Shows the mismatch modal (idempotent). */
export function raiseLogoutMismatch(): void {
  if (raised) return;
  raised = true;
  for (const l of listeners) l();
}

/** Whether the modal is shown (useSyncExternalStore snapshot). */
export function logoutMismatchRaised(): boolean {
  return raised;
}

/** Subscribes to the modal's state; returns the unsubscribe function. */
export function subscribeLogoutMismatch(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
