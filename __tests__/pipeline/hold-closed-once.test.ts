/**
 * A call's quota hold is finished once: a stream whose encoder fails settles its hold, and the
 * failure that then reaches the generate operation does not release the same hold a second time.
 */
import { MemoryKeyStore, type GenerateRoute, type ProtocolCodec, type Provider, type StreamPart } from '../../lib';
import { builtinCodecs } from '../../lib/extend';
import { buildApp, listen, TEST_KEY } from '../helpers/app';
import { RecordingQuotaStore } from '../helpers/recording-quota-store';

const start: StreamPart = { type: 'response-start', id: 'r1', model: 'upstream-name', created: 1 };

const provider: Provider = {
  specificationVersion: 'v1',
  name: 'scripted',
  async *stream() {
    yield start;
    yield { type: 'text-start', id: 't' };
    yield { type: 'text-delta', id: 't', delta: 'never sent' };
    yield { type: 'finish', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: { unified: 'stop' } };
  },
};

/** The OpenAI chat codec with a stream encoder that can encode nothing but the start, not even an error part. */
function brokenChatCodec(): ProtocolCodec {
  const chat = builtinCodecs().find((codec) => codec.name === 'openai-chat')!;
  return {
    ...chat,
    match(path) {
      const match = chat.match(path);
      if (match?.route.operation !== 'generate') return match;
      const route = match.route;
      const encodeStream: GenerateRoute['encodeStream'] = (request, call) => {
        const inner = route.encodeStream!(request, call);
        return {
          ...inner,
          encode: (part) => {
            if (part.type === 'response-start') return inner.encode(part);
            throw new TypeError('broken encoder');
          },
        };
      };
      return { ...match, route: { ...route, encodeStream } };
    },
  };
}

describe('a quota hold is settled or released once', () => {
  it('a stream whose encoder fails: its hold settled, never released afterwards', async () => {
    const quotaStore = new RecordingQuotaStore({ balances: { k: 1_000_000 } });
    const { app } = buildApp({
      keyStore: new MemoryKeyStore([{ key: TEST_KEY, id: 'k' }]),
      quotaStore,
      providers: [provider],
      models: [{ id: 'scripted', provider: 'scripted' }],
      codecs: [brokenChatCodec()],
    });
    const server = await listen(app);
    try {
      await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'x' }] }),
      })
        .then((response) => response.text())
        .catch(() => undefined);
      for (let wait = 0; wait < 100 && quotaStore.settles.length + quotaStore.releases.length < 2; wait++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(quotaStore.settles).toHaveLength(1);
      expect(quotaStore.settles[0]!.info?.settlement).toBe('failed-free');
      expect(quotaStore.releases).toHaveLength(0);
      expect(quotaStore.getAccount('k').reserved).toBe(0);
    } finally {
      await server.close();
    }
  });
});
