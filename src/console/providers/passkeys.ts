/**
 * Passkeys in the console (docs/architecture.md 'Staff sign-in'): the WebAuthn ceremonies of
 * @simplewebauthn/browser (loaded only when a passkey is used) against the server's calls
 * (src/server/routes/mfa-routes.ts). The server keeps and checks every challenge.
 */
import { request } from './http';
import type { LoginAnswer } from './auth-provider';

/** The API paths of passkeys and of staff sign-in. */
export const SECURITY_PATHS = {
  loginMfa: '/default/api/login/mfa',
  loginPasskeyOptions: '/default/api/login/passkey/options',
  loginPasskey: '/default/api/login/passkey',
  totpSetup: '/default/api/users/mfa/totp/setup',
  totpEnable: '/default/api/users/mfa/totp/enable',
  mfaStatus: '/default/api/users/mfa',
  mfaDisable: '/default/api/users/mfa/disable',
  passkeyOptions: '/default/api/users/passkeys/options',
  passkeys: '/default/api/users/passkeys',
  sessions: '/default/api/users/sessions/',
} as const;

/** Whether this browser can use passkeys at all (WebAuthn present). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * Signs in with a passkey: the second step of a sign-in (`mfaToken`), or instead of the password
 * (none). Resolves to the login answer; rejects with the ApiRequestError of the server, or the
 * browser's error when the user cancels.
 */
export async function signInWithPasskey(mfaToken: string | null): Promise<LoginAnswer> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const body = mfaToken ? { mfa_token: mfaToken } : {};
  const optionsJSON = await request<Parameters<typeof startAuthentication>[0]['optionsJSON']>(SECURITY_PATHS.loginPasskeyOptions, { method: 'POST', body, refreshOn401: false });
  const credential = await startAuthentication({ optionsJSON });
  return request<LoginAnswer>(SECURITY_PATHS.loginPasskey, { method: 'POST', body: { ...body, credential }, refreshOn401: false });
}

/** A passkey as the server lists it. */
export interface Passkey {
  id: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** Registers a passkey of the signed-in user under `name`; resolves to it. */
export async function registerPasskey(name: string): Promise<Passkey> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const optionsJSON = await request<Parameters<typeof startRegistration>[0]['optionsJSON']>(SECURITY_PATHS.passkeyOptions, { method: 'POST', body: {} });
  const credential = await startRegistration({ optionsJSON });
  return request<Passkey>(SECURITY_PATHS.passkeys, { method: 'POST', body: { name, credential } });
}
