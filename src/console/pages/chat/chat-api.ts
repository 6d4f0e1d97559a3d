/**
 * The chat calls of the console (server: src/server/chat/chat-routes.ts; docs/architecture.md
 * 'Chat'): conversations, a page of messages going backwards, send, mark read, delete, and the
 * city's live stream.
 */
import { request } from '../../providers/http';

/** A message as the server answers it: `text` is plain text (never rendered as HTML). */
export interface ChatMessage {
  id: number;
  conversation_id: number;
  sender_id: number | null;
  sender_name: string;
  side: string;
  text: string;
  image_url: string | null;
  deleted: boolean;
  created_at: string;
}

/** A conversation of the list, or the head of one. */
export interface ChatConversation {
  id: number;
  kind: 'shop' | 'class';
  city: string;
  shop_id: number | null;
  class_id: number | null;
  teacher_id: number | null;
  shop_name: string | null;
  shop_image: string | null;
  class_name: string | null;
  teacher_name: string | null;
  last_message: ChatMessage | null;
  unread: number;
  access?: 'write' | 'read' | 'list';
}

/** Messages per page (001 9 page size 20: chat). */
export const CHAT_PAGE_SIZE = 20;
/** The most characters of a message (the composer's counter). */
export const CHAT_TEXT_MAX = 2000;

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
