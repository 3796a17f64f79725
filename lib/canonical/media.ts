/** The canonical image-generation and embedding requests and responses. */
import type { Extensions } from './content';
import type { CallWarning, GenerateResponse, Usage } from './generate';
import type { EmbeddingVector } from './vectors';

/** An image-generation request (OpenAI images protocol). */
export interface ImageRequest {
  model: string;
  prompt: string;
  /** Number of images, 1..10. */
  n: number;
  width: number;
  height: number;
  /** `b64_json` returns base64; `url` returns a URL (a data: URL for the local provider). */
  responseFormat: 'b64_json' | 'url';
  quality?: string;
  style?: string;
  background?: string;
  outputFormat?: string;
  user?: string;
  extensions?: Extensions;
}

/** One generated image. */
export interface GeneratedImage {
  /** Base64 of the encoded image file. */
  base64: string;
  mediaType: string;
  revisedPrompt?: string;
}

/** An image-generation response. */
export interface ImageResponse {
  created: number;
  images: GeneratedImage[];
  /** Token usage where the provider reports it. */
  usage?: Usage;
  extensions?: Extensions;
}

/**
 * One input of an embedding call: text, or token ids (what OpenAI's `/v1/embeddings` accepts as an
 * array of integers; an upstream that takes only text refuses it with a 400).
 */
export type EmbedInput = string | readonly number[];

/** An embedding request (OpenAI `/v1/embeddings`, Gemini `:embedContent` / `:batchEmbedContents`). */
export interface EmbedRequest {
  model: string;
  /** The inputs, one vector each, in this order. Never empty. */
  inputs: EmbedInput[];
  /** Length of each vector (OpenAI `dimensions`, Gemini `outputDimensionality`). Default: the model's own. */
  dimensions?: number;
  /**
   * What the vectors are for, in Gemini's terms (`RETRIEVAL_QUERY`, `RETRIEVAL_DOCUMENT`,
   * `SEMANTIC_SIMILARITY`, `CLASSIFICATION`, `CLUSTERING`, …). An upstream without a counterpart
   * drops it with an `unsupported-setting` warning.
   */
  taskType?: string;
  /** The document's title (Gemini, with `RETRIEVAL_DOCUMENT`); dropped with a warning where there is no counterpart. */
  title?: string;
  /** The end user, for the upstream's abuse monitoring (OpenAI `user`). */
  user?: string;
  extensions?: Extensions;
}

/** Token usage of an embedding call: embeddings have input only. */
export interface EmbedUsage {
  inputTokens: number;
}

/** An embedding response. */
export interface EmbedResponse {
  /**
   * One vector per input, in input order: float32 values, JSON numbers, or the upstream's own text of them
   * ({@link WireVector}, read with the helpers of ./vectors.ts).
   */
  vectors: EmbeddingVector[];
  /** The model that answered, as the upstream named it. */
  model: string;
  /** The upstream's reported usage; absent when it reports none (Gemini), and the gateway's count is charged. */
  usage?: EmbedUsage;
  /** What the gateway could not pass on to the upstream (see {@link GenerateResponse.warnings}). */
  warnings?: CallWarning[];
  extensions?: Extensions;
}
