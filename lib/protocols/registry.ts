/** The built-in protocol codecs: one line per protocol. */
import type { ProtocolCodec } from './types';
import { anthropicMessagesCodec } from './anthropic-messages';
import { geminiCodec } from './gemini';
import { openAIChatCodec } from './openai-chat';
import { openAIEmbeddingsCodec } from './openai-embeddings';
import { openAIImagesCodec } from './openai-images';
import { openAIResponsesCodec } from './openai-responses';

/** A fresh set of the built-in codecs, in match order. */
export function builtinCodecs(): ProtocolCodec[] {
  return [
    geminiCodec(),
    anthropicMessagesCodec(),
    openAIChatCodec(),
    openAIImagesCodec(),
    openAIResponsesCodec(),
    openAIEmbeddingsCodec(),
  ];
}
