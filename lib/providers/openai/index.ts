/**
 * The OpenAI-compatible provider: OpenAI itself and every server speaking chat completions (vLLM, llama.cpp, Ollama,
 * OpenRouter…).
 */
import { booleanOption } from '../../config-check';
import type {
  EmbedRequest,
  EmbedResponse,
  GenerateRequest,
  ImageRequest,
  ImageResponse,
  ProviderStreamPart,
} from '../../canonical';
import { GatewayConfigError } from '../../errors';
import type { ModelConfig } from '../../model-config';
import { reportedFigures } from '../../tokenizer';
import type { BodySink } from '../../upstream/dispatch';
import { decodeEventStream } from '../../upstream/sse';
import type { UpstreamClient } from '../../upstream/upstream-client';
import {
  maxEmbedInputsOption,
  modelsFor,
  upstreamClientFor,
  type UpstreamProviderOptions,
} from '../../upstream/provider-options';
import type { CachePriceRatios, Provider, ProviderCallContext, ProviderGenerateResponse } from '../types';
import { openAICachePriceRatios } from './cache-prices';
import { decodeChatResponse, type OpenAIChatResponse } from './decode-response';
import { ChatStreamDecoder } from './decode-stream';
import { encodeChatRequest, type EncodeChatOptions, type MaxTokensField } from './encode-request';
import { reasoningReplayFor, type ReasoningReplay, type ReplayChooser } from './reasoning-replay';
import { type CompatibleVendor, presetFor } from './presets';
import { cacheControlFor, type CacheControlMode, type Markers } from './cache-markers';
import { collectParts } from '../../stream/collect';
import { decodeImageResponse, encodeImageRequest } from './images';
import { encodeEmbeddingsRequest, OPENAI_MAX_EMBED_INPUTS, parseEmbeddingsText } from './embed';
import {
  compactViaResponses,
  type ResponsesCompaction,
  responsesCompactionTest,
  triggerRequest,
} from './responses/compact';
import { compactExtension } from '../../wire/openai/compaction';
import { openAIMaxImageTokens } from './image-token-bound';
import { answerCapExhaustedStream, capExhaustedAnswer, isCapExhausted } from './output-cap';
import {
  generateViaResponses,
  responsesModelTest,
  streamViaResponses,
  type ResponsesCall,
  type ResponsesModels,
} from './responses/call';

/** Options of {@link OpenAIProvider}. */
export interface OpenAIProviderOptions extends UpstreamProviderOptions {
  /** Provider name for the model table and `provider/model` ids. Default `openai`. */
  name?: string;
  /** Sent as `Authorization: Bearer`. Optional for local servers that need none. */
  apiKey?: string;
  /** Base URL including the version path. Default `https://api.openai.com/v1`. */
  baseUrl?: string;
  /** Extra headers for every request (e.g. `OpenAI-Organization`, OpenRouter's `HTTP-Referer`). */
  headers?: Record<string, string>;
  /**
   * The vendor whose dialect of the API this upstream speaks (docs/providers.md, *Vendor presets*): its defaults for
   * `maxTokensField`, `reasoningModels`, `reasoningReplay`, `cacheControl` and `dashScopeThinking`, each overridden by
   * the option itself. Default: picked by the base URL's host (`api.openai.com` → `openai`, `api.deepseek.com` →
   * `deepseek`, …; any other host `generic`). Name one for a proxy in front of a vendor.
   */
  preset?: CompatibleVendor;
  /** Field for the output cap. Default `max_completion_tokens` on api.openai.com, `max_tokens` elsewhere. */
  maxTokensField?: MaxTokensField;
  /**
   * Which upstream model ids are reasoning models. For callers of another protocol (Anthropic
   * `thinking`/`output_config.effort`, Gemini `thinkingConfig`), a reasoning model gets
   * `reasoning_effort` (a thinking budget is bucketed: up to 1024 tokens `low`, up to 8192
   * `medium`, more `high`) and loses `temperature`/`top_p`, which OpenAI's reasoning models refuse;
   * for any other model the reasoning settings are dropped (a warning), because models without
   * reasoning refuse `reasoning_effort`. Chat-completions callers' own `reasoning_effort` always
   * passes through.
   *
   * Default: on `api.openai.com`, ids starting with `o` and a digit (`o1`, `o3-mini`, `o4-mini`) or
   * with `gpt-5`; on any other base URL, none (say which of your server's models reason, e.g.
   * `(id) => id.startsWith('deepseek-reasoner')`).
   */
  reasoningModels?: (upstreamModel: string) => boolean;
  /**
   * Which upstream model ids are called through the Responses API (`POST /responses`) instead of
   * chat completions: a list of ids, or a test of one (`(id) => id.startsWith('codex-')`). Some of
   * OpenAI's models exist only there; every caller protocol reaches them. A Responses caller's body
   * goes through as it came (built-in tools, `include`, `encrypted_content`, unknown fields), and
   * reasoning items come back encrypted (`store: false`) so a tool loop keeps its reasoning without
   * server state. Default: none (every model through chat completions).
   */
  responsesModels?: ResponsesModels;
  /**
   * Which of the `responsesModels` compact on the upstream itself: a `POST /v1/responses/compact` for one of them goes
   * to the upstream's own `/responses/compact`, and its compaction item (readable only by that upstream) comes back as
   * it was. `true` for all of them, a list of upstream ids, or a test of one. Default: none — the gateway compacts
   * with a summarising turn of the model, as for any other upstream (docs/translation.md, *Compaction*). Turn it on
   * for OpenAI itself; most other servers of the Responses API have no compact endpoint.
   */
  responsesCompaction?: ResponsesCompaction;
  /**
   * How the model's earlier reasoning goes back to the upstream on the assistant turns of a conversation (its
   * "reasoning dialect", see {@link ReasoningReplay}): one for every model, or a function choosing one per upstream
   * model id (an answer outside the list counts as `'none'`). Thinking models behind OpenAI-compatible APIs refuse a
   * tool loop without it: DeepSeek and Kimi want `reasoning_content` back on the turn that made the tool calls,
   * Gemini 3 on Google's endpoint its thought signatures, OpenRouter its `reasoning_details`. Only reasoning without
   * another vendor's signature is sent; each vendor's signatures go back to that vendor alone.
   *
   * Default: learned from the upstream's answers, on any host: once it answered reasoning in `reasoning_content` or
   * `reasoning`, its reasoning goes back in that field on the next turns (the field travels with the reasoning through
   * every caller protocol, bound to this provider). Before that (the first turn), and where the conversation carries no
   * reasoning this upstream made, by the base URL's host: `api.deepseek.com`, `api.moonshot.ai` / `.cn` and
   * `dashscope*.aliyuncs.com` → `'reasoning_content'`; `openrouter.ai` → `'reasoning_details'` and
   * `generativelanguage.googleapis.com` → `'google'` (these two never learn: their own structures go back); any other
   * host (OpenAI itself, vLLM, llama.cpp, Ollama…) → `'none'`. Set, the option wins over what was learned.
   */
  reasoningReplay?: ReasoningReplay | ((upstreamModel: string) => ReasoningReplay);
  /**
   * Whether the caller's prompt-cache breakpoints (an Anthropic caller's `cache_control`, a chat-completions caller's
   * on content parts and tools) go to the upstream as `cache_control` on the content part, tool or tool result they
   * were set on: the convention of OpenRouter and LiteLLM in front of Claude, without which a Claude Code session
   * through them pays its whole input every turn. `'send'`, `'drop'`, or a function of the upstream model id (true
   * sends). At most four are sent, as Anthropic refuses more (the conversation's earliest dropped first).
   *
   * Default: by the base URL's host: `openrouter.ai` sends for `anthropic/…`, `google/…` and `qwen/…` models (those
   * OpenRouter documents breakpoints for) and drops for the rest; `api.openai.com`, Google's
   * `generativelanguage.googleapis.com`, `api.deepseek.com` and `api.moonshot.ai` / `.cn` (automatic caching) drop;
   * any other host (a LiteLLM proxy, vLLM, llama.cpp, Ollama…) sends every caller's for a model whose id names Claude
   * (`claude` anywhere in it, as LiteLLM's `anthropic/claude-…` or `claude-sonnet-4-6`), and for the rest only a
   * chat-completions caller's own (written for this API).
   */
  cacheControl?: CacheControlMode | ((upstreamModel: string) => boolean);
  /**
   * Alibaba Cloud Model Studio's (DashScope's) Qwen thinking dialect: a caller's reasoning settings go as
   * `enable_thinking` and `thinking_budget` (not `reasoning_effort`), and a non-streamed call is streamed upstream and
   * collected, since Qwen answers in thinking mode only streamed (open-source Qwen3 models think by default, so a plain
   * non-streamed call to one is refused). Default: true on `dashscope*.aliyuncs.com`, else false.
   */
  dashScopeThinking?: boolean;
  /** Most inputs one upstream `/embeddings` call may carry; larger calls are split. Default 2,048 (OpenAI's limit). */
  maxEmbedInputs?: number;
  /**
   * Whether an OpenAI embeddings caller's `encoding_format: 'base64'` (the openai SDK's default) is asked of the
   * upstream too. Default true; set false for a compatible server that refuses the field (the gateway then asks for
   * floats and encodes base64 itself).
   */
  embeddingsBase64?: boolean;
}

export { isOpenAIReasoningModel } from './presets';

/** The `accept` of a streamed request. */
const EVENT_STREAM: Readonly<Record<string, string>> = { accept: 'text/event-stream' };

/**
 * Calls an OpenAI-compatible upstream over undici: chat completions or, for `responsesModels`, the Responses API
 * (streamed or not), and images.
 */
export class OpenAIProvider implements Provider {
  readonly specificationVersion = 'v1' as const;
  readonly name: string;
  readonly defaultModels: readonly ModelConfig[];
  private readonly client: UpstreamClient;
  private readonly maxTokensField: MaxTokensField;
  private readonly reasoningModels: (upstreamModel: string) => boolean;
  private readonly responsesModels: (upstreamModel: string) => boolean;
  private readonly responsesCompaction: (upstreamModel: string) => boolean;
  private readonly reasoningReplay: ReplayChooser;
  private readonly cacheMarkers: (upstreamModel: string) => Markers;
  /** DashScope (Qwen): thinking by `enable_thinking`, and answers only streamed in thinking mode (./dashscope.ts). */
  private readonly dashScope: boolean;
  private readonly embedInputs: number;
  private readonly embeddingsBase64: boolean;

  constructor(options: OpenAIProviderOptions = {}) {
    this.name = options.name ?? 'openai';
    const baseUrl = options.baseUrl ?? 'https://api.openai.com/v1';
    // The vendor's dialect: named, or picked by the base URL's host; each option the host sets wins over it.
    const preset = presetFor(baseUrl, options.preset);
    this.maxTokensField = options.maxTokensField ?? preset.maxTokensField;
    if (options.reasoningModels !== undefined && typeof options.reasoningModels !== 'function') {
      throw new GatewayConfigError(
        'ERR_GATEWAY_INVALID_OPTION',
        'reasoningModels must be a function (upstreamModel: string) => boolean.',
        'reasoningModels',
      );
    }
    this.reasoningModels = options.reasoningModels ?? preset.reasoningModels;
    this.responsesModels = responsesModelTest(options.responsesModels);
    this.responsesCompaction = responsesCompactionTest(options.responsesCompaction);
    this.reasoningReplay = reasoningReplayFor(options.reasoningReplay, preset.reasoningReplay, this.name);
    this.cacheMarkers = cacheControlFor(options.cacheControl, preset.cacheMarkers);
    this.dashScope = options.dashScopeThinking ?? preset.dashScopeThinking;
    this.embedInputs = maxEmbedInputsOption(options.maxEmbedInputs, OPENAI_MAX_EMBED_INPUTS);
    this.embeddingsBase64 = booleanOption('OpenAIProvider', 'embeddingsBase64', options.embeddingsBase64, true);
    this.client = upstreamClientFor(options, this.name, baseUrl, {
      ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
      ...options.headers,
    });
    this.defaultModels = modelsFor(options, this.name);
  }

  private encodeOptions(request: GenerateRequest, context: ProviderCallContext, stream: boolean): EncodeChatOptions {
    return {
      maxTokensField: this.maxTokensField,
      stream,
      reasoningModel: this.reasoningModels(context.upstreamModel),
      reasoningReplay: this.reasoningReplay(context.upstreamModel, request.messages),
      cacheMarkers: this.cacheMarkers(context.upstreamModel),
      qwenThinking: this.dashScope,
      warn: context.warn,
    };
  }

  /** OpenAI's cache prices for this model's family (see ./cache-prices.ts). */
  cachePriceRatios(upstreamModel: string): CachePriceRatios {
    return openAICachePriceRatios(upstreamModel);
  }

  /** The most input tokens one image costs this model (see ./image-token-bound.ts). */
  maxImageTokens(upstreamModel: string): number {
    return openAIMaxImageTokens(upstreamModel);
  }

  /** The call's settings when its model is called through `/responses`, else undefined. */
  private responsesCall(upstreamModel: string): ResponsesCall | undefined {
    return this.responsesModels(upstreamModel)
      ? { client: this.client, name: this.name, reasoningModel: this.reasoningModels(upstreamModel) }
      : undefined;
  }

  async generate(request: GenerateRequest, context: ProviderCallContext): Promise<ProviderGenerateResponse> {
    const responses = this.responsesCall(context.upstreamModel);
    if (responses) {
      if (!this.responsesCompaction(context.upstreamModel)) return generateViaResponses(responses, request, context);
      const compact = compactExtension(request.extensions);
      if (compact?.body) return compactViaResponses(responses, { ...compact, body: compact.body }, request, context);
      return generateViaResponses(responses, triggerRequest(request), context);
    }
    // Qwen's thinking mode answers only streamed: a non-streamed call is streamed upstream and collected.
    if (this.dashScope) return collectParts(this.stream(request, context));
    const body = encodeChatRequest(request, context.upstreamModel, this.encodeOptions(request, context, false));
    let response: OpenAIChatResponse;
    try {
      response = await this.client
        .forCall(context)
        .requestJson<OpenAIChatResponse>({ path: '/chat/completions', body });
    } catch (error) {
      // A reasoning model refuses a cap it used up before writing anything (Claude Code's max_tokens: 1 probe).
      if (isCapExhausted(error)) return capExhaustedAnswer(request, context.upstreamModel);
      throw error;
    }
    const decoded = decodeChatResponse(response, context.upstreamModel, this.name);
    // Figures the upstream left out (some compatible servers send no usage, or only part of it) are left out for the
    // gateway to count, not charged as 0.
    const sent = response.usage;
    const usage = reportedFigures(
      decoded.usage,
      typeof sent?.prompt_tokens === 'number',
      typeof sent?.completion_tokens === 'number',
    );
    return usage === decoded.usage ? decoded : { ...decoded, usage };
  }

  stream(request: GenerateRequest, context: ProviderCallContext): AsyncIterable<ProviderStreamPart> {
    const responses = this.responsesCall(context.upstreamModel);
    if (responses) {
      const compacting = this.responsesCompaction(context.upstreamModel);
      return streamViaResponses(responses, compacting ? triggerRequest(request) : request, context);
    }
    const upstream = this.client.forCall(context);
    const open = (sink: BodySink) => {
      const body = encodeChatRequest(request, context.upstreamModel, this.encodeOptions(request, context, true));
      return upstream.stream({ path: '/chat/completions', body, headers: EVENT_STREAM }, sink);
    };
    const decoder = new ChatStreamDecoder(this.name);
    const parts = decodeEventStream(open, decoder, this.name, upstream.signal, this.client.redactor);
    return answerCapExhaustedStream(parts, request, context.upstreamModel);
  }

  async generateImage(request: ImageRequest, context: ProviderCallContext): Promise<ImageResponse> {
    const body = encodeImageRequest(request, context.upstreamModel);
    const response = await this.client
      .forCall(context)
      .requestJson<Parameters<typeof decodeImageResponse>[0]>({ path: '/images/generations', body });
    return decodeImageResponse(response, this.name);
  }

  /** `maxEmbedInputs` (default 2,048). */
  maxEmbedInputs(): number {
    return this.embedInputs;
  }

  /** `POST /embeddings` (./embed.ts). */
  async embed(request: EmbedRequest, context: ProviderCallContext): Promise<EmbedResponse> {
    const body = encodeEmbeddingsRequest(request, context.upstreamModel, this.embeddingsBase64, context.warn);
    const read = (text: string) => parseEmbeddingsText(text, request.inputs.length, this.name, context.upstreamModel);
    return this.client.forCall(context).requestJson({ path: '/embeddings', body }, read);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
