/**
 * Image inputs through every caller protocol and upstream: inline and by URL, downloaded for Gemini, refused with a 400
 * where the target cannot take them.
 */
import {
  AnthropicProvider,
  GatewayConfigError,
  GatewayError,
  GeminiProvider,
  MemoryKeyStore,
  MemoryQuotaStore,
  OpenAIProvider,
  type ModelConfig,
} from '../../lib';
import { isBlockedAddress, MediaFetcher, mediaUrlKind } from '../../lib/upstream/fetch-media';
import { encodePng } from '../../lib/providers/local/png';
import { type Json, serveGateway, type RunningGateway } from '../helpers/app';
import { MOCK_ANTHROPIC_KEY, startMockAnthropic, type MockAnthropic } from '../helpers/mock-anthropic';
import { startMockGemini, type MockGemini } from '../helpers/mock-gemini';
import { closedPort, PIXEL_PNG, startMockMedia, type MockMedia } from '../helpers/mock-media';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mock-openai';

const KEY = 'sk-gateway-caller-key-images';
const GEMINI_KEY = 'AIzaSyImagesSecret0123456789abcdefgh';
const OPENAI_KEY = 'sk-upstream-openai-images';

/** The image callers send inline: a different PNG from the one the media host serves, so the two cannot be confused. */
const INLINE_PNG = encodePng(2, 2, Buffer.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]));
const INLINE_B64 = INLINE_PNG.toString('base64');
const PIXEL_B64 = PIXEL_PNG.toString('base64');
const FILES_API_URI = 'https://generativelanguage.googleapis.com/v1beta/files/abc123xyz';

let media: MockMedia;
let gemini: MockGemini;
let openaiMock: MockOpenAI;
let anthropicMock: MockAnthropic;
let server: RunningGateway;
const quota = new MemoryQuotaStore({ balances: { caller: 1_000_000_000 } });

const models: ModelConfig[] = [
  { id: 'to-openai', provider: 'openai', upstreamModel: 'echo' },
  { id: 'to-anthropic', provider: 'anthropic', upstreamModel: 'echo' },
  { id: 'to-gemini', provider: 'gemini', upstreamModel: 'echo' },
  { id: 'to-gemini-strict', provider: 'gemini-strict', upstreamModel: 'echo' },
  { id: 'to-gemini-urls', provider: 'gemini-urls', upstreamModel: 'echo' },
];

beforeAll(async () => {
  [media, gemini, openaiMock, anthropicMock] = await Promise.all([
    startMockMedia(),
    startMockGemini({ apiKey: GEMINI_KEY }),
    startMockOpenAI(),
    startMockAnthropic(),
  ]);
  const gem = { baseUrl: gemini.url, apiKey: GEMINI_KEY, retries: { max: 0 } };
  server = await serveGateway({
    keyStore: new MemoryKeyStore([{ key: KEY, id: 'caller' }]),
    quotaStore: quota,
    providers: [
      new OpenAIProvider({ baseUrl: openaiMock.url, apiKey: OPENAI_KEY, retries: { max: 0 } }),
      new AnthropicProvider({ baseUrl: anthropicMock.url, apiKey: MOCK_ANTHROPIC_KEY, retries: { max: 0 } }),
      // The media host is on 127.0.0.1, so the provider that downloads from it must allow private networks.
      new GeminiProvider({ ...gem, allowPrivateNetworks: true, imageDownload: { maxBytes: 64 * 1024 } }),
      new GeminiProvider({ ...gem, name: 'gemini-strict' }),
      new GeminiProvider({ ...gem, name: 'gemini-urls', inlineImageUrls: false }),
    ],
    models,
  });
});
afterAll(async () => {
  await server.close();
  await Promise.all([media.close(), gemini.close(), openaiMock.close(), anthropicMock.close()]);
});

// ---------------------------------------------------------------------------------------------
// Callers: one user turn "text + images" in each protocol.

type Caller = 'openai' | 'anthropic' | 'gemini';
type Upstream = 'openai' | 'anthropic' | 'gemini';
type Image = { kind: 'inline'; mediaType: string; data: string } | { kind: 'url'; url: string };

const inline = (data = INLINE_B64, mediaType = 'image/png'): Image => ({ kind: 'inline', mediaType, data });
const byUrl = (url: string): Image => ({ kind: 'url', url });
const PROMPT = 'What is in these pictures?';

function openAIPart(image: Image): Json {
  return {
    type: 'image_url',
    image_url: { url: image.kind === 'inline' ? `data:${image.mediaType};base64,${image.data}` : image.url },
  };
}
function anthropicBlock(image: Image): Json {
  return {
    type: 'image',
    source:
      image.kind === 'inline'
        ? { type: 'base64', media_type: image.mediaType, data: image.data }
        : { type: 'url', url: image.url },
  };
}
/**
 * Gemini callers give a URL as `fileData` with its MIME type (without one the codec reads it as a file, not an image).
 */
function geminiPart(image: Image): Json {
  return image.kind === 'inline'
    ? { inlineData: { mimeType: image.mediaType, data: image.data } }
    : { fileData: { fileUri: image.url, mimeType: 'image/png' } };
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
  json: () => Json;
}

async function post(path: string, headers: Record<string, string>, body: Json): Promise<Answer> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text,
    json: () => JSON.parse(text) as Json,
  };
}

/** Sends "PROMPT + images" to `model` as `caller` would. */
function send(caller: Caller, model: string, images: Image[], stream = false): Promise<Answer> {
  switch (caller) {
    case 'openai':
      return post(
        '/v1/chat/completions',
        { authorization: `Bearer ${KEY}` },
        {
          model,
          stream,
          messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }, ...images.map(openAIPart)] }],
        },
      );
    case 'anthropic':
      return post(
        '/v1/messages',
        { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
        {
          model,
          max_tokens: 100,
          stream,
          messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }, ...images.map(anthropicBlock)] }],
        },
      );
    case 'gemini':
      return post(
        `/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        { 'x-goog-api-key': KEY },
        {
          contents: [{ role: 'user', parts: [{ text: PROMPT }, ...images.map(geminiPart)] }],
        },
      );
  }
}

const MODEL_OF: Record<Upstream, string> = { openai: 'to-openai', anthropic: 'to-anthropic', gemini: 'to-gemini' };
const requestsOf = (upstream: Upstream): Array<{ body: Record<string, unknown> }> =>
  upstream === 'openai' ? openaiMock.requests : upstream === 'anthropic' ? anthropicMock.requests : gemini.requests;

/** The image parts of the last request an upstream mock received, in its own wire shape. */
function upstreamImages(upstream: Upstream): Json[] {
  const body = requestsOf(upstream).at(-1)!.body as Json;
  switch (upstream) {
    case 'openai':
      return (body.messages as Json[])
        .flatMap((message) => (Array.isArray(message.content) ? (message.content as Json[]) : []))
        .filter((part) => part.type === 'image_url');
    case 'anthropic':
      return (body.messages as Json[])
        .flatMap((message) => (Array.isArray(message.content) ? (message.content as Json[]) : []))
        .filter((block) => block.type === 'image');
    case 'gemini':
      return (body.contents as Json[])
        .flatMap((content) => content.parts as Json[])
        .filter((part) => part.inlineData || part.fileData);
  }
}

/** The answer is a 200 in the caller's own protocol. */
function expectAnswered(caller: Caller, answer: Answer): void {
  expect(answer.status).toBe(200);
  const body = answer.json();
  if (caller === 'openai') expect(body.choices[0].message.content).toContain('upstream says');
  if (caller === 'anthropic') expect(body.content[0].text).toContain('upstream says');
  if (caller === 'gemini') expect(body.candidates[0].content.parts[0].text).toContain('upstream says');
}

/**
 * A 400 in the caller's own error envelope whose message names `field` (and `param` too, for
 * OpenAI callers) and matches every `reason`; the hold on the caller's quota was released.
 */
function expectRefused(caller: Caller, answer: Answer, reasons: RegExp[], field: string): void {
  expect(answer.status).toBe(400);
  expect(answer.contentType).toContain('application/json');
  const body = answer.json();
  let message: string;
  if (caller === 'openai') {
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.param).toBe(field);
    message = body.error.message;
  } else if (caller === 'anthropic') {
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('invalid_request_error');
    message = body.error.message;
  } else {
    expect(body.error.code).toBe(400);
    expect(body.error.status).toBe('INVALID_ARGUMENT');
    message = body.error.message;
  }
  expect(message).toContain(field);
  for (const reason of reasons) expect(message).toMatch(reason);
  expect(quota.getAccount('caller').reserved).toBe(0);
}

const CALLERS: Caller[] = ['openai', 'anthropic', 'gemini'];
const UPSTREAMS: Upstream[] = ['openai', 'anthropic', 'gemini'];
const pixelUrl = () => `${media.url}/pixel.png`;

// ---------------------------------------------------------------------------------------------

describe.each(CALLERS)('%s caller: an inline image and a URL image', (caller) => {
  it.each(UPSTREAMS)('reach the %s upstream in its native shape', async (upstream) => {
    const downloadsBefore = media.requests.length;
    const answer = await send(caller, MODEL_OF[upstream], [inline(), byUrl(pixelUrl())]);
    expectAnswered(caller, answer);
    const images = upstreamImages(upstream);
    switch (upstream) {
      case 'openai':
        expect(images).toEqual([
          { type: 'image_url', image_url: { url: `data:image/png;base64,${INLINE_B64}` } },
          { type: 'image_url', image_url: { url: pixelUrl() } },
        ]);
        expect(media.requests.length).toBe(downloadsBefore);
        break;
      case 'anthropic':
        expect(images).toEqual([
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: INLINE_B64 } },
          { type: 'image', source: { type: 'url', url: pixelUrl() } },
        ]);
        expect(media.requests.length).toBe(downloadsBefore);
        break;
      case 'gemini':
        if (caller === 'gemini') {
          // Same protocol: the caller's own body goes through, fileData and all.
          expect(images).toEqual([
            { inlineData: { mimeType: 'image/png', data: INLINE_B64 } },
            { fileData: { fileUri: pixelUrl(), mimeType: 'image/png' } },
          ]);
          expect(media.requests.length).toBe(downloadsBefore);
        } else {
          // Downloaded by the gateway and inlined, byte for byte, under the served media type.
          expect(images).toEqual([
            { inlineData: { mimeType: 'image/png', data: INLINE_B64 } },
            { inlineData: { mimeType: 'image/png', data: PIXEL_B64 } },
          ]);
          expect(media.requests.slice(downloadsBefore)).toEqual(['/pixel.png']);
        }
        break;
    }
  });
});

describe('URL images to a Gemini upstream', () => {
  it.each<Caller>(['openai', 'anthropic'])('are inlined on a streamed call from a %s caller too', async (caller) => {
    const answer = await send(caller, 'to-gemini', [byUrl(pixelUrl())], true);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toContain('text/event-stream');
    expect(answer.text).toContain(' pictures?');
    expect(answer.text).toContain(caller === 'openai' ? '"finish_reason":"stop"' : 'event: message_stop');
    expect(upstreamImages('gemini')).toEqual([{ inlineData: { mimeType: 'image/png', data: PIXEL_B64 } }]);
    expect(gemini.requests.at(-1)!.action).toBe('streamGenerateContent');
  });

  it('downloads one URL given twice only once, and inlines both', async () => {
    const before = media.requests.length;
    expect((await send('openai', 'to-gemini', [byUrl(pixelUrl()), byUrl(pixelUrl())])).status).toBe(200);
    expect(media.requests.slice(before)).toEqual(['/pixel.png']);
    expect(upstreamImages('gemini')).toEqual([
      { inlineData: { mimeType: 'image/png', data: PIXEL_B64 } },
      { inlineData: { mimeType: 'image/png', data: PIXEL_B64 } },
    ]);
  });

  it('follows up to 3 redirects', async () => {
    const before = media.requests.length;
    expectAnswered('anthropic', await send('anthropic', 'to-gemini', [byUrl(`${media.url}/redirect/3`)]));
    expect(media.requests.slice(before)).toEqual(['/redirect/3', '/redirect/2', '/redirect/1', '/pixel.png']);
    expect(upstreamImages('gemini')).toEqual([{ inlineData: { mimeType: 'image/png', data: PIXEL_B64 } }]);
  });

  it('inlines an image inside an Anthropic tool result', async () => {
    const answer = await post(
      '/v1/messages',
      { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' },
      {
        model: 'to-gemini',
        max_tokens: 100,
        messages: [
          { role: 'user', content: 'Take a screenshot.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }] },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_1',
                content: [
                  { type: 'text', text: 'done' },
                  { type: 'image', source: { type: 'url', url: pixelUrl() } },
                ],
              },
            ],
          },
        ],
      },
    );
    expect(answer.status).toBe(200);
    const body = gemini.requests.at(-1)!.body as Json;
    const response = (body.contents as Json[])
      .flatMap((content) => content.parts as Json[])
      .find((part) => part.functionResponse)!;
    expect(response.functionResponse.parts).toEqual([{ inlineData: { mimeType: 'image/png', data: PIXEL_B64 } }]);
  });

  it('keeps a Gemini Files API URI as fileData (never downloaded)', async () => {
    const before = media.requests.length;
    expectAnswered('openai', await send('openai', 'to-gemini', [byUrl(FILES_API_URI)]));
    expect(upstreamImages('gemini')).toEqual([{ fileData: { fileUri: FILES_API_URI } }]);
    expect(media.requests.length).toBe(before);
  });

  it('sends URLs as fileData when inlineImageUrls is false', async () => {
    const before = media.requests.length;
    expectAnswered('anthropic', await send('anthropic', 'to-gemini-urls', [byUrl(pixelUrl())]));
    expect(upstreamImages('gemini')).toEqual([{ fileData: { fileUri: pixelUrl() } }]);
    expect(media.requests.length).toBe(before);
  });
});

// ---------------------------------------------------------------------------------------------

describe('refusals: a 400 in the caller’s envelope naming the part, the upstream never called, the quota released', () => {
  /** Sends, expects the refusal, and checks the upstream mock saw nothing. */
  async function refused(
    caller: Caller,
    model: string,
    images: Image[],
    reasons: RegExp[],
    options: { stream?: boolean; upstream?: Upstream } = {},
  ): Promise<void> {
    const upstream = options.upstream ?? 'gemini';
    const upstreamBefore = requestsOf(upstream).length;
    // The refused image is the last part (the text is part 0).
    expectRefused(
      caller,
      await send(caller, model, images, options.stream),
      reasons,
      `messages[0].content[${images.length}]`,
    );
    expect(requestsOf(upstream).length).toBe(upstreamBefore);
  }

  describe.each<Caller>(['openai', 'anthropic'])('%s caller → Gemini', (caller) => {
    it.each([false, true])('a private address (127.0.0.1) without allowPrivateNetworks, stream %s', async (stream) => {
      const before = media.requests.length;
      await refused(
        caller,
        'to-gemini-strict',
        [inline(), byUrl(pixelUrl())],
        [/127\.0\.0\.1 is a private or local network address/, /refuses to fetch/],
        { stream },
      );
      expect(media.requests.length).toBe(before);
    });

    it('the cloud metadata address 169.254.169.254, by the literal-IP check before any connection', async () => {
      await refused(
        caller,
        'to-gemini-strict',
        [inline(), byUrl('http://169.254.169.254/latest/meta-data/iam/security-credentials/')],
        [/169\.254\.169\.254 is a private or local network address/],
      );
    });

    it('an IPv4-mapped IPv6 loopback literal', async () => {
      const port = new URL(media.url).port;
      await refused(
        caller,
        'to-gemini-strict',
        [inline(), byUrl(`http://[::ffff:127.0.0.1]:${port}/pixel.png`)],
        [/private or local network address/],
      );
    });

    it('a host name that resolves to loopback, by the address checked when the socket connects', async () => {
      const before = media.requests.length;
      const port = new URL(media.url).port;
      await refused(
        caller,
        'to-gemini-strict',
        [inline(), byUrl(`http://localhost:${port}/pixel.png`)],
        [/localhost resolves to 127\.0\.0\.1, a private or local network address/],
      );
      expect(media.requests.length).toBe(before);
    });

    it.each([
      ['announced by Content-Length', '/large.png'],
      ['sent chunked', '/large-chunked.png'],
    ])('an image larger than maxBytes, %s', async (_how, path) => {
      await refused(caller, 'to-gemini', [inline(), byUrl(`${media.url}${path}`)], [/larger than the 64 KB limit/]);
    });

    it('a URL that is not an image', async () => {
      await refused(caller, 'to-gemini', [inline(), byUrl(`${media.url}/page.html`)], [/not an image/, /text\/html/]);
    });

    it('an unreachable host', async () => {
      await refused(
        caller,
        'to-gemini',
        [inline(), byUrl(`http://127.0.0.1:${await closedPort()}/pixel.png`)],
        [/not reachable \(ECONNREFUSED\)/],
      );
    });

    it('a URL the server answers with 404', async () => {
      await refused(caller, 'to-gemini', [inline(), byUrl(`${media.url}/missing.png`)], [/the server answered 404/]);
    });

    it('more than 3 redirects', async () => {
      await refused(caller, 'to-gemini', [inline(), byUrl(`${media.url}/redirect/4`)], [/redirects more than 3 times/]);
    });

    it('a streamed call, before the stream starts', async () => {
      await refused(caller, 'to-gemini', [inline(), byUrl(`${media.url}/page.html`)], [/not an image/], {
        stream: true,
      });
    });
  });

  it.each<[Caller, Upstream, Image]>([
    ['gemini', 'openai', byUrl(FILES_API_URI)],
    ['gemini', 'anthropic', byUrl(FILES_API_URI)],
    ['anthropic', 'openai', byUrl(FILES_API_URI)],
    ['openai', 'anthropic', byUrl('gs://my-bucket/photo.png')],
    ['gemini', 'anthropic', byUrl('gs://my-bucket/photo.png')],
  ])('a %s caller’s Gemini file URI to the %s upstream', async (caller, upstream, image) => {
    await refused(
      caller,
      MODEL_OF[upstream],
      [inline(), image],
      [/Gemini Files API or gs:\/\/ URI/, /can only be sent to a Gemini upstream/],
      { upstream },
    );
  });

  it.each<[Caller, string]>([
    ['openai', 'image/bmp'],
    ['gemini', 'image/heic'],
  ])('a %s caller’s %s image to Anthropic (JPEG, PNG, GIF and WebP only)', async (caller, mediaType) => {
    await refused(
      caller,
      'to-anthropic',
      [inline(), inline(INLINE_B64, mediaType)],
      [/image\/jpeg, image\/png, image\/gif and image\/webp/, new RegExp(mediaType)],
      { upstream: 'anthropic' },
    );
  });
});

// ---------------------------------------------------------------------------------------------

describe('the media fetcher (unit)', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['0.0.0.0', true],
    ['100.64.0.1', true],
    ['224.0.0.251', true],
    ['255.255.255.255', true],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fe80::1%eth0', true],
    ['fd12:3456::1', true],
    ['fc00::1', true],
    ['ff02::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:a9fe:a9fe', true],
    ['64:ff9b::10.0.0.1', true],
    ['2002:c0a8:0101::1', true],
    ['[::1]', true],
    ['not-an-ip', true],
    ['8.8.8.8', false],
    ['172.32.0.1', false],
    ['192.169.0.1', false],
    ['1.1.1.1', false],
    ['2001:4860:4860::8888', false],
    ['::ffff:8.8.8.8', false],
  ])('isBlockedAddress(%s) is %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });

  it('tells http URLs from Gemini file URIs and other schemes', () => {
    expect(mediaUrlKind('https://example.com/a.png')).toBe('http');
    expect(mediaUrlKind('http://example.com/files/a.png')).toBe('http');
    expect(mediaUrlKind(FILES_API_URI)).toBe('gemini-file');
    expect(mediaUrlKind('gs://bucket/a.png')).toBe('gemini-file');
    expect(mediaUrlKind('ftp://example.com/a.png')).toBe('other');
    expect(mediaUrlKind('not a url')).toBe('other');
  });

  it('accepts a body served as octet-stream only under the declared media type', async () => {
    const fetcher = new MediaFetcher({ allowPrivateNetworks: true });
    try {
      await expect(
        fetcher.fetch({ url: `${media.url}/pixel.bin`, declaredType: 'image/png', at: 'x' }),
      ).resolves.toEqual({ mediaType: 'image/png', data: PIXEL_B64 });
      await expect(fetcher.fetch({ url: `${media.url}/pixel.bin`, at: 'x' })).rejects.toMatchObject({
        kind: 'invalid_request',
        code: 'media_not_an_image',
        param: 'x',
      });
    } finally {
      await fetcher.close();
    }
  });

  it('refuses a non-http scheme without fetching', async () => {
    const fetcher = new MediaFetcher();
    try {
      const failure = fetcher.fetch({ url: 'file:///etc/passwd', at: 'messages[2].content[0]' });
      await expect(failure).rejects.toBeInstanceOf(GatewayError);
      await expect(failure).rejects.toMatchObject({
        status: 400,
        code: 'media_invalid_url',
        param: 'messages[2].content[0]',
      });
    } finally {
      await fetcher.close();
    }
  });

  it('validates its options and the provider’s at creation', () => {
    expect(() => new MediaFetcher({ timeoutMs: 0 })).toThrow(GatewayConfigError);
    expect(() => new MediaFetcher({ maxBytes: 1.5 })).toThrow(/'maxBytes' must be a positive integer/);
    expect(() => new GeminiProvider({ imageDownload: { timeoutMs: -1 } })).toThrow(/imageDownload\.timeoutMs/);
    // @ts-expect-error a string instead of a boolean
    expect(() => new GeminiProvider({ inlineImageUrls: 'yes' })).toThrow(/'inlineImageUrls' must be true or false/);
    // @ts-expect-error a string instead of a boolean
    expect(() => new GeminiProvider({ allowPrivateNetworks: 'true' })).toThrow(
      /'allowPrivateNetworks' must be true or false/,
    );
  });
});
