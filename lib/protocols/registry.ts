/** The built-in protocol codecs: one line per protocol. */
import type { ProtocolCodec } from './types';
import { openAIChatCodec } from './openai-chat';

/** A fresh set of the built-in codecs, in match order. */
export function builtinCodecs(): ProtocolCodec[] {
  return [
    openAIChatCodec(),
  ];
}
