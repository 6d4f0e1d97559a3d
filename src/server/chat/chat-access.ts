/**
 * Who may do what in a chat conversation (000 6 Specifics: chat is the Operator's, its list also the
 * Administrator's; 000 2.2: an Advertiser writes about its own shops, the Teacher's class chat
 * `group/chat/`, the hidden history `group/chat/:classId/:teacherId` read by the school's President
 * and the Operator). One function decides for the routes, the list filters and the live streams.
 */
import type { ConversationKey } from '../../shared/chat';
import { effectiveRole, type Profile } from '../../shared/roles';

/** The sides of a conversation: the city's Operators, the shop's Advertisers, the class's Teacher. */
export type ChatSide = 'city' | 'shop' | 'teacher';

/**
 * What `profile` may do in the conversation: `write` (a participant: read, send, mark read, on its
 * `side`), `read` (the class history: President of the school, Operator of the city), `list` (the
 * Administrator: the conversation appears in its list, nothing more) or null (a stranger: 404).
 * Only in a city the profile may enter (`active_city`).
 */
export function chatAccess(profile: Profile, conv: ConversationKey): { access: 'write' | 'read' | 'list' | null; side: ChatSide | null } {
  const none = { access: null, side: null } as const;
  if (!profile.active_city.some((c) => c.name === conv.city)) return none;
  const role = effectiveRole(profile);
  if (conv.kind === 'shop') {
    if (role === 'Operator') return { access: 'write', side: 'city' };
    if (role === 'Advertiser' && conv.shop_id !== null && profile.advertisements.includes(conv.shop_id)) return { access: 'write', side: 'shop' };
    if (role === 'Administrator') return { access: 'list', side: null };
    return none;
  }
  if (role === 'Teacher' && conv.teacher_id === profile.id && conv.class_id !== null && profile.classes.includes(conv.class_id)) return { access: 'write', side: 'teacher' };
  if (role === 'Operator') return { access: 'read', side: null };
  if (role === 'President' && conv.school_id !== null && conv.school_id === profile.school) return { access: 'read', side: null };
  return none;
}
