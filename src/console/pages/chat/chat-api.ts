/**
 * The chat calls of the console (server: src/server/chat/chat-routes.ts; docs/architecture.md
 * 'Chat'): conversations, a page of messages going backwards, send, mark read, delete, and the
 * city's live stream.
 */
import { request } from '../../providers/http';

import type { ChatConversation, ChatMessage } from '@/shared/chat';

export { CHAT_PAGE_SIZE, CHAT_TEXT_MAX, type ChatConversation, type ChatMessage } from '@/shared/chat';

const base = (city: string) => `/${encodeURIComponent(city)}/api/chat`;

/** GET …/conversations/: the caller's conversations of `kind` (default by role), newest first. */
export function listConversations(city: string, query: { kind?: 'shop' | 'class'; offset?: number; limit?: number; class_id?: number; teacher_id?: number } = {}) {
  return request<{ content: ChatConversation[]; total_length: number }>(`${base(city)}/conversations/`, { query });
}

/** GET …/conversations/{id}/: one conversation (404 when the caller takes no part in it). */
export function getConversation(city: string, id: number) {
  return request<ChatConversation>(`${base(city)}/conversations/${id}/`);
}

/** GET …/messages/?before=: the page below `before` (the newest when undefined), oldest first. */
export function pageMessages(city: string, id: number, before?: number | null) {
  return request<{ content: ChatMessage[]; next_before: number | null }>(`${base(city)}/conversations/${id}/messages/`, { query: { before: before ?? undefined } });
}

/** POST …/messages/: sends text and/or an uploaded image (its stored name). */
export function sendMessage(city: string, id: number, body: { text?: string; image?: string }) {
  return request<ChatMessage>(`${base(city)}/conversations/${id}/messages/`, { method: 'POST', body });
}

/** POST …/read: everything read; answers the caller's badge. */
export function markRead(city: string, id: number) {
  return request<{ unread: number; chat_admin_unread: number }>(`${base(city)}/conversations/${id}/read`, { method: 'POST' });
}

/** DELETE …/messages/{messageId}/ (Operator): the message stays, shown as deleted. */
export function deleteMessage(city: string, id: number, messageId: number) {
  return request<ChatMessage>(`${base(city)}/conversations/${id}/messages/${messageId}/`, { method: 'DELETE' });
}

/** The city's live chat stream (EventSource reconnects by itself with Last-Event-ID). */
export function chatStreamPath(city: string): string {
  return `${base(city)}/stream`;
}

/**
 * The shop image to show: only an upload of ours (`/files/…`); the Content Security Policy allows no
 * other origin's images (src/server/plugins/security-headers.ts), so another address gets the icon.
 */
export function shownImage(url: string | null): string | undefined {
  return url && url.startsWith('/') && !url.startsWith('//') ? url : undefined;
}
