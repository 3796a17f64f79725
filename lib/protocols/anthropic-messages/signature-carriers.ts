/** Vendor signatures that an Anthropic caller echoes back, cleaned out of the body another vendor may be sent. */
import { signatureFromThinking, splitToolId } from '../shared/signature-carrier';
import type { MessagesBody, RawBlock, RawMessage } from './schema';

function idCarries(id: unknown): boolean {
  return typeof id === 'string' && splitToolId(id).carried !== undefined;
}

function isCarriedThinking(block: RawBlock): boolean {
  return block.type === 'thinking' && typeof block.signature === 'string' && signatureFromThinking(block.signature) !== undefined;
}

function blockCarries(block: RawBlock): boolean {
  if (block.type === 'tool_use') return idCarries(block.id);
  if (block.type === 'tool_result') return idCarries(block.tool_use_id);
  return isCarriedThinking(block);
}

function carries(message: RawMessage): boolean {
  return Array.isArray(message.content) && message.content.some(blockCarries);
}

/** A block without its carrier (undefined for a `<vendor>:` thinking block, which only that vendor may see). */
function cleanBlock(block: RawBlock): RawBlock | undefined {
  if (isCarriedThinking(block)) return undefined;
  if (block.type === 'tool_use' && typeof block.id === 'string') return { ...block, id: splitToolId(block.id).id };
  if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') return { ...block, tool_use_id: splitToolId(block.tool_use_id).id };
  return block;
}

/**
 * The body as another vendor may see it (same-protocol pass-through forwards it): tool ids
 * without a vendor signature carrier, `<vendor>:` thinking blocks (`gemini:…`) removed (and an assistant
 * message left without content with them). The body itself when it carries nothing.
 */
export function withoutSignatureCarriers(body: MessagesBody): MessagesBody {
  if (!body.messages.some(carries)) return body;
  const messages = body.messages.flatMap((message): RawMessage[] => {
    if (!carries(message) || typeof message.content === 'string') return [message];
    const content = message.content.flatMap((block) => cleanBlock(block) ?? []);
    return content.length > 0 || message.content.length === 0 ? [{ ...message, content }] : [];
  });
  return { ...body, messages };
}
