/**
 * A mock OpenAI-compatible upstream on plain node:http. POST …/chat/completions answers at once
 * with a fixed small chat completion, or (stream: true) a handful of SSE chunks plus the usage chunk
 * and [DONE]. The model `mock-slow` trickles its stream instead: one chunk every
 * BENCH_SLOW_INTERVAL_MS (default 100) until the parent sends `slow-release` over IPC (then each
 * stream finishes at its next tick), and never for longer than BENCH_SLOW_MAX_CHUNKS chunks
 * (default 600, one minute) — so 1,000 streams can be held open together for a known time.
 * POST …/embeddings answers one fixed vector per input (EMBEDDING_DIMENSIONS float32 values, as JSON numbers or, for
 * `encoding_format: "base64"`, as base64), in the OpenAI shape with usage.
 */
import http from 'node:http';
import { createRequire } from 'node:module';

const { serve } = createRequire(import.meta.url)('./instrument.cjs');

const SLOW_INTERVAL_MS = Number(process.env.BENCH_SLOW_INTERVAL_MS ?? 100);
const SLOW_MAX_CHUNKS = Number(process.env.BENCH_SLOW_MAX_CHUNKS ?? 600);
const ID = 'chatcmpl-mock0001';
const CREATED = 1_700_000_000;
const TEXT = ['Hello', '! How can', ' I help you', ' today?'];
const USAGE = { prompt_tokens: 14, completion_tokens: 9, total_tokens: 23 };

function completion(model) {
  return Buffer.from(
    JSON.stringify({
      id: ID,
      object: 'chat.completion',
      created: CREATED,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: TEXT.join(''), refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: USAGE,
      system_fingerprint: null,
    }),
  );
}

function chunk(model, delta, finishReason = null) {
  return `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] })}\n\n`;
}

function usageChunk(model) {
  return `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: USAGE })}\n\n`;
}

const cache = new Map();
function fixed(model) {
  let entry = cache.get(model);
  if (!entry) {
    entry = {
      completion: completion(model),
      stream: [
        chunk(model, { role: 'assistant', content: '' }),
        ...TEXT.map((text) => chunk(model, { content: text })),
        chunk(model, {}, 'stop'),
        usageChunk(model),
        'data: [DONE]\n\n',
      ],
      tick: chunk(model, { content: ' tick' }),
      tail: [chunk(model, { content: ' today?' }), chunk(model, {}, 'stop'), usageChunk(model), 'data: [DONE]\n\n'],
    };
    cache.set(model, entry);
  }
  return entry;
}

/** The length of every vector the mock answers: what a caller asking `dimensions: 256` of text-embedding-3 gets. */
const EMBEDDING_DIMENSIONS = 256;
const VECTOR = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, index) => Math.fround(Math.sin(index + 1) / 16));
const VECTOR_BASE64 = Buffer.from(Float32Array.from(VECTOR).buffer).toString('base64');
const embeddingAnswers = new Map();

/** The fixed embeddings answer for `count` inputs, as floats or base64 (made once per model, count and format). */
function embeddings(model, count, base64) {
  const key = `${model}\n${count}\n${base64}`;
  let answer = embeddingAnswers.get(key);
  if (!answer) {
    answer = Buffer.from(
      JSON.stringify({
        object: 'list',
        data: Array.from({ length: count }, (_, index) => ({
          object: 'embedding',
          index,
          embedding: base64 ? VECTOR_BASE64 : VECTOR,
        })),
        model,
        usage: { prompt_tokens: 8 * count, total_tokens: 8 * count },
      }),
    );
    embeddingAnswers.set(key, answer);
  }
  return answer;
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
let served = 0;
let connections = 0;
let slowActive = 0;
let slowPeak = 0;
let slowCompleted = 0;
let slowReleased = false;

function slowStream(response, answer) {
  slowActive++;
  slowPeak = Math.max(slowPeak, slowActive);
  response.writeHead(200, SSE_HEADERS);
  response.write(answer.stream[0]);
  let sent = 0;
  let finished = false;
  const done = () => {
    if (finished) return;
    finished = true;
    clearInterval(timer);
    slowActive--;
  };
  const timer = setInterval(() => {
    if (++sent < SLOW_MAX_CHUNKS && !slowReleased) {
      response.write(answer.tick);
      return;
    }
    for (const text of answer.tail) response.write(text);
    response.end();
    slowCompleted++;
    done();
  }, SLOW_INTERVAL_MS);
  response.on('close', done);
}

const server = http.createServer((request, response) => {
  const embedding = request.url.endsWith('/embeddings');
  if (request.method !== 'POST' || !(embedding || request.url.endsWith('/chat/completions'))) {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":{"message":"not found"}}');
    return;
  }
  const chunks = [];
  request.on('data', (data) => chunks.push(data));
  request.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end('{"error":{"message":"bad json"}}');
      return;
    }
    served++;
    const model = typeof body.model === 'string' ? body.model : 'mock-model';
    if (embedding) {
      const count = Array.isArray(body.input) && typeof body.input[0] !== 'number' ? body.input.length : 1;
      const answer = embeddings(model, count, body.encoding_format === 'base64');
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.length });
      response.end(answer);
      return;
    }
    const answer = fixed(model);
    if (model === 'mock-slow') {
      slowStream(response, answer);
      return;
    }
    if (body.stream === true) {
      response.writeHead(200, SSE_HEADERS);
      for (const text of answer.stream) response.write(text);
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': answer.completion.length });
    response.end(answer.completion);
  });
});

// New TCP connections: with keep-alive working, a handful per run, not one per request.
server.on('connection', () => connections++);

serve(server, {
  name: process.env.BENCH_NAME ?? 'mock-upstream',
  extraStats: () => ({ served, connections, slowActive, slowPeak, slowCompleted }),
  commands: {
    /** A new slow-stream phase: streams trickle until released. */
    'slow-reset': () => {
      slowReleased = false;
      slowPeak = slowActive;
    },
    /** Every slow stream finishes at its next tick. */
    'slow-release': () => {
      slowReleased = true;
    },
  },
});
