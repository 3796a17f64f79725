/**
 * Tools only one vendor's upstream runs (built-in and server tools), as callers' codecs keep them in extensions: what
 * every other upstream drops.
 */
import { foreignCompaction, isCompactionType } from './openai/compaction';
import type { Debugger } from 'debug';
import type { GenerateRequest, ProtocolName } from '../canonical';
import { isJsonObject } from '../json';
import { reportDrop, type Warn } from '../warnings';
import { ANTHROPIC_MESSAGES_KEY, type AnthropicRequestExtension } from './anthropic/extensions';
import { refuseForeignCachedContent } from './gemini/cached-content';
import { GEMINI_EXTENSION_KEY, type GeminiRequestExtension } from './gemini/extensions';
import { RESPONSES, type ResponsesRequestExtension } from './openai/responses-extensions';

/**
 * A tool the upstream of `protocol` runs itself, named by its wire type (`web_search`, `web_search_20250305`,
 * `googleSearch`).
 */
export interface VendorTool {
  protocol: ProtocolName;
  type: string;
}

/**
 * The vendor-run tools of a request, whatever protocol its caller spoke: a Responses caller's
 * built-in tools (`extensions['openai-responses'].tools`), an Anthropic caller's server tools
 * (`serverTools`), a Gemini caller's non-function tool members (`tools[].fields`).
 */
export function vendorTools(request: GenerateRequest): VendorTool[] {
  const found: VendorTool[] = [];
  const extensions = request.extensions;
  if (!extensions) return found;
  const responses = extensions[RESPONSES] as ResponsesRequestExtension | undefined;
  for (const tool of responses?.tools ?? [])
    found.push({ protocol: RESPONSES, type: typeof tool.type === 'string' ? tool.type : 'unknown' });
  const anthropic = extensions[ANTHROPIC_MESSAGES_KEY] as AnthropicRequestExtension | undefined;
  for (const { tool } of anthropic?.serverTools ?? [])
    found.push({ protocol: ANTHROPIC_MESSAGES_KEY, type: typeof tool.type === 'string' ? tool.type : 'unknown' });
  const gemini = extensions[GEMINI_EXTENSION_KEY] as GeminiRequestExtension | undefined;
  for (const entry of gemini?.tools ?? []) {
    for (const key of Object.keys(entry.fields ?? {})) found.push({ protocol: GEMINI_EXTENSION_KEY, type: key });
  }
  return found;
}

/**
 * Refuses a Gemini caller's explicit cache for an upstream of another protocol (a 400:
 * `refuseForeignCachedContent`), then reports (see `reportDrop`) every vendor-run tool that an upstream speaking `own` does not send
 * (all of them when `own` is undefined, as for the local provider), and a Responses caller's
 * built-in tool choice, which such an upstream replaces with the nearest canonical choice.
 */
export function reportForeignTools(
  request: GenerateRequest,
  own: ProtocolName | undefined,
  log: Debugger,
  warn: Warn | undefined,
): void {
  refuseForeignCachedContent(request, own);
  reportForeignItems(request, own, log, warn);
  if (!request.extensions) return;
  for (const tool of vendorTools(request)) {
    if (tool.protocol === own) continue;
    reportDrop(log, warn, {
      type: 'unsupported-tool',
      tool: tool.type,
      details: `a built-in tool that only a ${tool.protocol} upstream runs`,
    });
  }
  const responses = request.extensions[RESPONSES];
  if (own !== RESPONSES && isJsonObject(responses) && isJsonObject(responses.tool_choice)) {
    const details = `a tool_choice of type ${String(responses.tool_choice.type)}, which only a ${RESPONSES} upstream takes; sent as ${request.toolChoice?.type ?? 'auto'}`;
    reportDrop(log, warn, { type: 'unsupported-setting', setting: 'tool_choice', details });
  }
  const anthropic = request.extensions[ANTHROPIC_MESSAGES_KEY] as AnthropicRequestExtension | undefined;
  if (own !== ANTHROPIC_MESSAGES_KEY && anthropic?.serverToolChoice) {
    const details = `a tool_choice forcing the server tool ${String(anthropic.serverToolChoice.name)}, which only an ${ANTHROPIC_MESSAGES_KEY} upstream runs; left out`;
    reportDrop(log, warn, { type: 'unsupported-setting', setting: 'tool_choice', details });
  }
}

/**
 * Reports (see `reportDrop`) each opaque item of the conversation (a Responses built-in tool's call
 * from an earlier turn, `web_search_call`, …) that an upstream speaking `own` does not send: one
 * made in another protocol, named by its wire type.
 */
export function reportForeignItems(
  request: GenerateRequest,
  own: ProtocolName | undefined,
  log: Debugger,
  warn: Warn | undefined,
): void {
  for (const message of request.messages) {
    if (!message.opaque) continue;
    for (const opaque of message.opaque) {
      for (const protocol in opaque.extensions) {
        if (protocol === own) continue;
        const item = opaque.extensions[protocol]?.item;
        const type = isJsonObject(item) && typeof item.type === 'string' ? item.type : 'unknown';
        // An upstream's compaction stands for the history it replaced: without it the answer would differ.
        if (isCompactionType(type) && isJsonObject(item) && typeof item.encrypted_content === 'string')
          foreignCompaction(type);
        reportDrop(log, warn, {
          type: 'unsupported-tool',
          tool: type,
          details: `an item of an earlier turn that only a ${protocol} upstream takes`,
        });
      }
    }
  }
}
