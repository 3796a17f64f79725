/** An upper bound of a request's input tokens, from UTF-8 byte counts: what a text call's quota hold is sized on. */
import type { ContentPart, GenerateRequest } from './canonical';

/**
 * Most tokens one image costs when a provider does not say (`Provider.maxImageTokens`): the
 * largest general figure of the three built-in families (Gemini's).
 */
export const DEFAULT_MAX_IMAGE_TOKENS = 4_128;

/** Pages a file part (a PDF, a document) is held at: each page an image plus {@link PAGE_TEXT_TOKENS} of text. */
export const FILE_PAGES_BOUND = 10;
/** Text tokens allowed per page of a file part. */
export const PAGE_TEXT_TOKENS = 3_000;

/** Framing tokens allowed per message (role markers, separators): more than any built-in family uses. */
const FRAMING_PER_MESSAGE = 8;
/** Tokens allowed for priming the reply. */
const FRAMING_PER_REPLY = 8;
/**
 * Tokens allowed for the prompt an upstream adds when tools are declared (Anthropic documents up
 * to 346 for its tool-use system prompt; OpenAI renders the definitions in a format of its own).
 */
const TOOLS_PROMPT_TOKENS = 600;

/** What decides a request's input bound, measured once for every model of a fallback chain. */
export interface InputSize {
  /** Everything but media at one token per UTF-8 byte, plus framing. */
  textTokens: number;
  /** Image parts, wherever they are (messages, tool results). */
  images: number;
  /** File parts. */
  files: number;
}

const bytes = (text: string | undefined): number => (text === undefined ? 0 : Buffer.byteLength(text));

function addPart(size: InputSize, part: ContentPart): void {
  switch (part.type) {
    case 'text':
      size.textTokens += bytes(part.text);
      return;
    case 'reasoning':
      size.textTokens += bytes(part.text) + bytes(part.redactedData);
      return;
    case 'image':
      size.images += 1;
      return;
    case 'file':
      size.files += 1;
      return;
    case 'tool-call':
      size.textTokens += bytes(part.id) + bytes(part.name) + bytes(part.arguments);
      return;
    case 'tool-result':
      size.textTokens += bytes(part.toolCallId) + bytes(part.toolName);
      for (const inner of part.content) addPart(size, inner);
  }
}

/**
 * Measures what the upstream reads of a request: every text, reasoning text, tool call and tool
 * result, participant names, tool definitions and a response-format schema (as JSON). A
 * byte-level BPE token stands for at least one byte (so do SentencePiece tokens with byte
 * fallback), so the byte count bounds the tokens of any of them.
 */
export function measureInput(request: GenerateRequest): InputSize {
  const size: InputSize = { textTokens: FRAMING_PER_REPLY, images: 0, files: 0 };
  for (const message of request.messages) {
    size.textTokens += FRAMING_PER_MESSAGE + bytes(message.name);
    for (const part of message.content) addPart(size, part);
  }
  if (request.tools?.length) size.textTokens += TOOLS_PROMPT_TOKENS + bytes(JSON.stringify(request.tools));
  if (request.responseFormat?.type === 'json-schema')
    size.textTokens += bytes(request.responseFormat.name) + bytes(JSON.stringify(request.responseFormat.schema));
  return size;
}

/** The input bound for an upstream whose images cost at most `maxImageTokens` each. */
export function inputTokenBound(size: InputSize, maxImageTokens: number): number {
  return (
    size.textTokens + size.images * maxImageTokens + size.files * FILE_PAGES_BOUND * (maxImageTokens + PAGE_TEXT_TOKENS)
  );
}
