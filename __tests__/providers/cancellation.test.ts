/** The per-call cancellation: what undici and providers see of it. */
import { providerCallContext } from '../../lib/providers/call-context';
import { CallUpstream } from '../../lib/upstream/call-upstream';
import { CallCancellation } from '../../lib/providers/cancellation';
import type { GenerateResponse, Provider } from '../../lib';
import { serveGateway, TEST_KEY, testOptions } from '../helpers/app';

describe('CallCancellation', () => {
  it('calls its listeners once on abort, not those removed, and none added after', () => {
    const cancellation = new CallCancellation();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    cancellation.once('abort', () => calls.push('a'));
    cancellation.on('abort', removed);
    cancellation.once('abort', () => calls.push('b'));
    cancellation.removeListener('abort', removed);
    const reason = new Error('gone');
    cancellation.abort(reason);
    cancellation.abort(new Error('again'));
    cancellation.once('abort', () => calls.push('late'));
    expect(calls).toEqual(['a', 'b']);
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBe(reason);
  });

  it('makes an AbortSignal on demand that follows it, before or after the abort', () => {
    const early = new CallCancellation();
    const signal = early.signal;
    expect(early.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    early.abort('bye');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('bye');

    const late = new CallCancellation();
    late.abort('bye');
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe('bye');
  });

  it("gives providers a context whose signal works when read, when copied, and for the built-in providers' undici calls", () => {
    const cancellation = new CallCancellation();
    const context = providerCallContext(cancellation, 'upstream-model', 'req_1');
    expect(context).toMatchObject({ upstreamModel: 'upstream-model', requestId: 'req_1' });
    const sender = { requestJson: jest.fn(), stream: jest.fn() };
    const callSignal = (made: typeof context) => new CallUpstream(sender, made).signal;
    expect(callSignal(context)).toBe(cancellation);
    expect(Object.keys(context)).not.toContain('cancellation');
    const copied = { ...context, upstreamModel: 'other' };
    expect(callSignal(copied)).toBe(cancellation);
    cancellation.abort('client left');
    expect(context.signal.aborted).toBe(true);
    expect(copied.signal.aborted).toBe(true);

    const hostMade = { upstreamModel: 'm', requestId: 'r', signal: new AbortController().signal };
    expect(callSignal(hostMade)).toBe(hostMade.signal);
  });
});

describe('a call that is answered', () => {
  it('is not cancelled when its connection closes afterwards, streamed or not', async () => {
    const signals: AbortSignal[] = [];
    const provider: Provider = {
      specificationVersion: 'v1',
      name: 'watched',
      async generate(request, context): Promise<GenerateResponse> {
        signals.push(context.signal);
        return {
          id: 'r1',
          model: request.model,
          created: 1,
          choices: [{ index: 0, content: [{ type: 'text', text: 'hi' }], finishReason: { unified: 'stop' } }],
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
    };
    const running = await serveGateway(
      testOptions({ providers: [provider], models: [{ id: 'watched', provider: 'watched' }] }),
    );
    try {
      for (const stream of [false, true]) {
        const response = await fetch(`${running.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}`, connection: 'close' },
          body: JSON.stringify({ model: 'watched', messages: [{ role: 'user', content: 'hello' }], stream }),
        });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('hi');
      }
      // Both responses are over and their connections closed by now; give the 'close' events a turn.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(signals).toHaveLength(2);
      expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
    } finally {
      await running.close();
    }
  });
});
