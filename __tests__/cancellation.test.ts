/** The per-call cancellation: what undici and providers see of it. */
import { CallCancellation, callSignal, providerCallContext } from '../lib/providers/cancellation';

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
    expect(callSignal(context)).toBe(cancellation);
    const copied = { ...context, upstreamModel: 'other' };
    expect(callSignal(copied)).toBe(cancellation);
    cancellation.abort('client left');
    expect(context.signal.aborted).toBe(true);
    expect(copied.signal.aborted).toBe(true);

    const hostMade = { upstreamModel: 'm', requestId: 'r', signal: new AbortController().signal };
    expect(callSignal(hostMade)).toBe(hostMade.signal);
  });
});
