/** Token counting with a real BPE tokenizer (gpt-tokenizer, o200k_base), loaded on first use. */
import type { ContentPart, GenerateRequest, GenerateResponse, ProviderStreamPart, Usage } from './canonical';
import type { ProviderGenerateResponse } from './providers/types';

interface Tokenizer {
  encode(text: string): number[];
  decode(tokens: number[]): string;
  countTokens(text: string): number;
}

let tokenizer: Tokenizer | undefined;

function load(): Tokenizer {
  // Loaded lazily: the rank table takes a few hundred milliseconds to build and most hosts never count.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  tokenizer ??= require('gpt-tokenizer') as Tokenizer;
  return tokenizer;
}

/** Characters handed to the tokenizer at once. */
const MAX_PIECE = 2048;
/** The longest run without white space tokenized whole; BPE time grows with the square of a run's length. */
const MAX_RUN = 64;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN + 1},}`);

/**
 * Splits text into pieces the tokenizer handles in linear time: cuts go before a single space between
 * words (where the tokenizer's own pre-split always cuts, so counts stay exact for ordinary text), and runs of more
 * than
 * MAX_RUN non-space characters (base64, minified code, "xxxx…") are cut every MAX_RUN characters,
 * which can only add a token or two per cut.
 */
export function tokenizerPieces(text: string): string[] {
  if (text.length <= MAX_PIECE && !LONG_RUN.test(text)) return [text];
  const pieces: string[] = [];
  let start = 0;
  let run = 0;
  let lastSpace = -1;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const space = code === 32 || code === 10 || code === 9 || code === 13;
    if (space) {
      run = 0;
      if (code === 32 && isWordBoundarySpace(text, index)) lastSpace = index;
    } else if (++run > MAX_RUN) {
      pieces.push(text.slice(start, index));
      start = index;
      run = 1;
      lastSpace = -1;
      continue;
    }
    if (index - start >= MAX_PIECE && lastSpace > start) {
      pieces.push(text.slice(start, lastSpace));
      start = lastSpace;
      lastSpace = -1;
    }
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/** A single space between two non-space characters: the tokenizer always starts a new piece there (" word"). */
function isWordBoundarySpace(text: string, index: number): boolean {
  return index > 0 && index + 1 < text.length && /\S/.test(text[index - 1]!) && /\S/.test(text[index + 1]!);
}

/** Tokens in a string. */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  const tokenizer = load();
  let total = 0;
  for (const piece of tokenizerPieces(text)) total += tokenizer.countTokens(piece);
  return total;
}

/** Characters {@link countTextTokensUpTo} hands the tokenizer at a time. */
const COUNT_WINDOW = 16 * 1024;

/**
 * Characters of one request the exact tokenizer may still read: {@link EXACT_COUNT_MAX_CHARS} to start with, spent by
 * {@link countTextTokensWithin}. Past it a count is left unknown and the caller uses an upper bound.
 */
export class TokenizerBudget {
  constructor(public chars: number = EXACT_COUNT_MAX_CHARS) {}
}

/** Characters handed to the tokenizer by the budgeted counts since the process started (for tests and diagnostics). */
let budgetedChars = 0;

/** Characters the budgeted counts have handed to the tokenizer so far in this process. */
export function tokenizedChars(): number {
  return budgetedChars;
}

/**
 * Tokens in a string, counted only until they pass `limit`: the exact count when it is at most `limit` (for ordinary
 * text; a window cut inside a long run of non-space characters may add a token, as {@link tokenizerPieces}' own
 * cuts do), else some figure above it. The text is read a window at a time, each cut before a space between words,
 * so an over-long text (a 20 MB string) costs the tokenizer about `limit` tokens, not the whole string.
 */
export function countTextTokensUpTo(text: string, limit: number): number {
  return countWindows(text, limit, undefined)!;
}

/**
 * {@link countTextTokensUpTo} within a request's {@link TokenizerBudget}: each window read is taken from the budget,
 * and the count is undefined (unknown) when the budget runs out before the text ends or the count passes `limit`.
 */
export function countTextTokensWithin(text: string, limit: number, budget: TokenizerBudget): number | undefined {
  return countWindows(text, limit, budget);
}

function countWindows(text: string, limit: number, budget: TokenizerBudget | undefined): number | undefined {
  if (text.length === 0) return 0;
  const tokenizer = load();
  let total = 0;
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + COUNT_WINDOW);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end - 1);
      if (space > start && isWordBoundarySpace(text, space)) end = space;
    }
    if (budget) {
      if (budget.chars <= 0) return undefined;
      budget.chars -= end - start;
      budgetedChars += end - start;
    }
    for (const piece of tokenizerPieces(text.slice(start, end))) {
      total += tokenizer.countTokens(piece);
      if (total > limit) return total;
    }
    start = end;
  }
  return total;
}

/** Encodes text to token ids. */
export function encodeTokens(text: string): number[] {
  const tokenizer = load();
  const pieces = tokenizerPieces(text);
  return pieces.length === 1 ? tokenizer.encode(text) : pieces.flatMap((piece) => tokenizer.encode(piece));
}

/** Decodes token ids to text. */
export function decodeTokens(tokens: number[]): string {
  return load().decode(tokens);
}

/** Tokens an image costs in the estimate: a fixed, documented figure (the tile-based costs of vendors vary). */
export const IMAGE_TOKEN_ESTIMATE = 765;

/** Framing tokens per message, as in OpenAI's chat format (`<|im_start|>role … <|im_end|>`). */
const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the reply. */
const TOKENS_PER_REPLY = 3;

function countPart(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return countTextTokens(part.text);
    case 'reasoning':
      return countTextTokens(part.text);
    case 'image':
    case 'file':
      return IMAGE_TOKEN_ESTIMATE;
    case 'tool-call':
      return countTextTokens(part.name) + countTextTokens(part.arguments);
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + countPart(inner), 0);
  }
}

/** UTF-8 bytes per token assumed by {@link estimateRequestTokens}: English averages about 4, CJK about 3. */
const BYTES_PER_TOKEN_ESTIMATE = 3;

function estimatePart(part: ContentPart): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return Math.ceil(Buffer.byteLength(part.text) / BYTES_PER_TOKEN_ESTIMATE);
    case 'image':
    case 'file':
      return IMAGE_TOKEN_ESTIMATE;
    case 'tool-call':
      return Math.ceil((Buffer.byteLength(part.name) + Buffer.byteLength(part.arguments)) / BYTES_PER_TOKEN_ESTIMATE);
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + estimatePart(inner), 0);
  }
}

/**
 * A fast estimate of a request's input tokens without the tokenizer (which costs ~70 MB and real
 * CPU per call): UTF-8 bytes / 3, which over-counts ordinary text and under-counts digits and CJK.
 * A stream shows it until its provider reports the input; quota holds use the upper bound of
 * `./token-bound.ts` instead.
 */
export function estimateRequestTokens(request: GenerateRequest): number {
  let total = TOKENS_PER_REPLY;
  for (const message of request.messages) {
    total += TOKENS_PER_MESSAGE;
    for (const part of message.content) total += estimatePart(part);
  }
  if (request.tools?.length)
    total += Math.ceil(Buffer.byteLength(JSON.stringify(request.tools)) / BYTES_PER_TOKEN_ESTIMATE);
  return total;
}

/**
 * Characters of text (message content and tool definitions) a request may have for the tokenizer
 * to count it exactly. The tokenizer runs on the event loop at a few MB/s, so a larger request is
 * given its upper bound instead ({@link requestTokenUpperBound}): counting it would stall every
 * other call of the process.
 */
export const EXACT_COUNT_MAX_CHARS = 1024 * 1024;

/** The sum of `measure` over a part's texts; an image or file counts {@link IMAGE_TOKEN_ESTIMATE}. */
function measurePart(part: ContentPart, measure: (text: string) => number): number {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return measure(part.text);
    case 'image':
    case 'file':
      return IMAGE_TOKEN_ESTIMATE;
    case 'tool-call':
      return measure(part.name) + measure(part.arguments);
    case 'tool-result':
      return part.content.reduce((sum, inner) => sum + measurePart(inner, measure), 0);
  }
}

/** The framing of a request plus `measure` over every part and over the tool definitions' JSON. */
function measureRequest(
  request: GenerateRequest,
  measure: (text: string) => number,
  toolsJson: string | undefined,
): number {
  let total = TOKENS_PER_REPLY;
  for (const message of request.messages) {
    total += TOKENS_PER_MESSAGE;
    for (const part of message.content) total += measurePart(part, measure);
  }
  return toolsJson === undefined ? total : total + measure(toolsJson);
}

const charCount = (text: string) => text.length;
const byteCount = (text: string) => Buffer.byteLength(text);

/**
 * An upper bound of a request's input tokens without the tokenizer: its texts' UTF-8 bytes (a
 * byte-level BPE token is at least one byte) plus the framing, images at their fixed figure.
 */
export function requestTokenUpperBound(request: GenerateRequest): number {
  return measureRequest(request, byteCount, request.tools?.length ? JSON.stringify(request.tools) : undefined);
}

/**
 * Input tokens of a request: every message's content plus per-message framing, and the tool
 * definitions as JSON. This is exact for the embedded local provider and an estimate for others.
 * Over {@link EXACT_COUNT_MAX_CHARS} of text it is the upper bound ({@link requestTokenUpperBound}).
 */
export function countRequestTokens(request: GenerateRequest): number {
  const toolsJson = request.tools?.length ? JSON.stringify(request.tools) : undefined;
  if (measureRequest(request, charCount, toolsJson) > EXACT_COUNT_MAX_CHARS)
    return measureRequest(request, byteCount, toolsJson);
  let total = TOKENS_PER_REPLY;
  for (const message of request.messages) {
    total += TOKENS_PER_MESSAGE;
    for (const part of message.content) total += countPart(part);
  }
  if (toolsJson !== undefined) total += countTextTokens(toolsJson);
  return total;
}

/** Decodes tokens one step at a time: each string is the text the next token(s) complete (never half a character). */
export function decodeTokenSteps(tokens: number[]): Iterable<string> {
  return (load() as Tokenizer & { decodeGenerator(tokens: number[]): Iterable<string> }).decodeGenerator(tokens);
}

/**
 * Pieces gathered before they are joined into one string. A piece is a string of its own (a
 * 16-byte header, its characters rounded up to 8 bytes) plus its slot in the array, so a delta of a
 * few characters costs 3–5 × its text until joined; joined every 16, a stream holds little more
 * than its text (a 32-byte rope node per 16 pieces), for one extra copy of each character.
 */
const PIECES_PER_JOIN = 16;

/**
 * Text a stream produced, gathered piece by piece (by the gateway's `StreamMeter`, once per stream)
 * for a token count that is only needed when the usage is missing (the upstream reported none, or
 * the stream was cut short). Appending with `+=` would keep a 32-byte rope node per piece for the
 * stream's whole life; this keeps the pieces in an array and joins them every 16.
 */
export class ProducedText {
  private joined = '';
  private readonly pieces: string[] = [];

  add(text: string): void {
    if (text.length === 0) return;
    this.pieces.push(text);
    if (this.pieces.length >= PIECES_PER_JOIN) this.join();
  }

  /** Adds what a stream part adds to the output: a delta's text, a tool call's name. */
  addPart(part: ProviderStreamPart): void {
    if (part.type === 'text-delta' || part.type === 'reasoning-delta' || part.type === 'tool-call-delta')
      this.add(part.delta);
    else if (part.type === 'tool-call-start') this.add(part.name);
  }

  /** Everything produced so far. */
  text(): string {
    this.join();
    return this.joined;
  }

  private join(): void {
    if (this.pieces.length === 0) return;
    this.joined += this.pieces.join('');
    this.pieces.length = 0;
  }
}

/**
 * A decoded `usage` as far as the upstream reported it: the same object when it sent both the
 * input and the output count, else a copy without the count(s) it left out, for
 * the gateway to count ({@link completeUsage}) rather than charge as 0.
 */
export function reportedFigures(usage: Usage, inputSent: boolean, outputSent: boolean): Partial<Usage> {
  if (inputSent && outputSent) return usage;
  const { inputTokens, outputTokens, ...details } = usage;
  const reported: Partial<Usage> = details;
  if (inputSent) reported.inputTokens = inputTokens;
  if (outputSent) reported.outputTokens = outputTokens;
  return reported;
}

/**
 * `usage` with the figures an upstream left out (all of them when it is undefined) counted with the
 * tokenizer, so a call is charged what it plausibly cost rather than nothing: the input is
 * `input()`, the output the tokens of `produced()`. Each is called only when its figure is missing;
 * a complete `usage` comes back as it is.
 */
export function completeUsage(usage: Partial<Usage> | undefined, input: () => number, produced: () => string): Usage {
  if (usage?.inputTokens !== undefined && usage.outputTokens !== undefined) return usage as Usage;
  return markCounted({
    ...usage,
    inputTokens: usage?.inputTokens ?? input(),
    outputTokens: usage?.outputTokens ?? countTextTokens(produced()),
  });
}

/** The usage figures the gateway counted (some or all of them) rather than took from the upstream's report. */
const gatewayCounts = new WeakSet<Usage>();

/** Marks `usage` as (partly) counted by the gateway, for the usage record's `usageSource`; returns it. */
export function markCounted(usage: Usage): Usage {
  gatewayCounts.add(usage);
  return usage;
}

/** Whether the gateway counted some of `usage`'s figures itself ({@link completeUsage}, a cut stream's count). */
export function countedByGateway(usage: Usage): boolean {
  return gatewayCounts.has(usage);
}

/**
 * A non-streamed answer with the usage figures its provider left out counted, as {@link completeUsage}
 * does: the input from the request, the output from the first choice's content. An answer with every
 * figure reported comes back as it is.
 */
export function completeResponseUsage(response: ProviderGenerateResponse, request: GenerateRequest): GenerateResponse {
  const reported = response.usage;
  const produced = () => {
    let text = '';
    for (const part of response.choices[0]?.content ?? []) {
      if (part.type === 'text' || part.type === 'reasoning') text += part.text;
      else if (part.type === 'tool-call') text += part.name + part.arguments;
    }
    return text;
  };
  const usage = completeUsage(reported, () => countRequestTokens(request), produced);
  return usage === reported ? (response as GenerateResponse) : { ...response, usage };
}
