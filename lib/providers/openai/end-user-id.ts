/** The chat-completions `user` value for a canonical end-user id, kept within the length OpenAI accepts. */
import { createHash } from 'node:crypto';

/** The longest `user` OpenAI is reported to accept (third-party reports; OpenRouter takes 128). */
export const MAX_USER_LENGTH = 64;

/**
 * The id itself when it fits, else its SHA-256 in hex (64 characters): still stable and distinct
 * per end user, as the field is meant to be. Claude Code's `metadata.user_id` (a JSON string of
 * device, account and session ids) is much longer than 64 characters.
 */
export function openAIUserId(user: string): string {
  return user.length <= MAX_USER_LENGTH ? user : createHash('sha256').update(user).digest('hex');
}
