/**
 * The chat's shapes and limits, one definition for the server (src/server/chat/) and the console
 * (src/console/pages/chat/): 001 9 'page size 20: chat', the 2,000-character message, a message and
 * a conversation as the API answers them (docs/architecture.md 'Chat').
 */

/** A page of messages or conversations holds this many (001 9 'page size 20: chat'). */
export const CHAT_PAGE_SIZE = 20;
/** The most characters of a message. */
export const CHAT_TEXT_MAX = 2000;

/** A message as the API answers it: `text` is plain text (never rendered as HTML); a deleted one has no text and no image. */
export interface ChatMessage {
  id: number;
  conversation_id: number;
  sender_id: number | null;
  sender_name: string;
  side: string;
  text: string;
  image_url: string | null;
  deleted: boolean;
  /** ISO 8601. */
  created_at: string;
}

/** What decides who takes part in a conversation: its city and its shop or class (and teacher, school). */
export interface ConversationKey {
  city: string;
  kind: 'shop' | 'class';
  shop_id: number | null;
  class_id: number | null;
  teacher_id: number | null;
  /** The school of the class (kind `class`), null when unknown. */
  school_id: number | null;
}

/** A conversation as the API answers it (its list and its head). */
export interface ChatConversation extends ConversationKey {
  id: number;
  shop_name: string | null;
  shop_image: string | null;
  class_name: string | null;
  teacher_name: string | null;
  last_message: ChatMessage | null;
  /** The caller's unread messages in it (0 when not a participant). */
  unread: number;
  /** What the caller may do in it (the list's answer). */
  access?: 'write' | 'read' | 'list';
}
