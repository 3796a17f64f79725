/** The signature carrier names no vendor: whichever vendors lib/wire/carried-signatures.ts lists are carried alike. */
import type { SignatureVendor } from '../../../lib/wire/signature-vendor';

const ACME: SignatureVendor = { name: 'acme', metadataKey: 'replayToken', idTag: 'acm' };

type Carrier = typeof import('../../../lib/protocols/shared/signature-carrier');

/** The carrier module as it is with `vendors` as the list of carried vendors. */
function carrierWith(vendors: SignatureVendor[]): Carrier {
  let carrier: Carrier | undefined;
  jest.isolateModules(() => {
    jest.doMock('../../../lib/wire/carried-signatures', () => ({ CARRIED_SIGNATURE_VENDORS: vendors }));
    carrier = require('../../../lib/protocols/shared/signature-carrier') as Carrier;
  });
  return carrier!;
}

afterEach(() => jest.dontMock('../../../lib/wire/carried-signatures'));

describe('signature carrier, vendor as data', () => {
  it('carries a listed vendor’s signature from its metadata through a tool id and a thinking signature, and back', () => {
    const carrier = carrierWith([ACME]);
    const carried = carrier.carriedSignatureOf({ acme: { replayToken: 'tok/en+1=' } });
    expect(carried).toEqual({ vendor: 'acme', signature: 'tok/en+1=' });

    const id = carrier.carrySignatureInToolId('call_1', carried);
    expect(id).toMatch(/^call_1__acmsig1_[A-Za-z0-9_-]+$/);
    expect(carrier.splitToolId(id)).toEqual({ id: 'call_1', carried });

    const thinking = carrier.carrySignatureInThinking(carried!);
    expect(thinking).toBe('acme:tok/en+1=');
    expect(carrier.signatureFromThinking(thinking)).toEqual(carried);
    expect(carrier.signatureMetadata(carried)).toEqual({ providerMetadata: { acme: { replayToken: 'tok/en+1=' } } });

    // For a Gemini caller, whose clients hold thought signatures as bytes: base64, and back.
    const thought = carrier.carrySignatureInThought(carried!);
    expect(thought).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(carrier.signatureFromThought(thought)).toEqual(carried);
  });

  it('reads no vendor signature from a Gemini thought signature of its own, or from one not base64', () => {
    const carrier = carrierWith([ACME]);
    expect(carrier.signatureFromThought('Cs4BAY89a1+loop/step1==')).toBeUndefined();
    expect(carrier.signatureFromThought('acme:tok/en+1=')).toBeUndefined();
    const unlisted = Buffer.from('rosetta:other:tok', 'utf8').toString('base64');
    expect(carrier.signatureFromThought(unlisted)).toBeUndefined();
  });

  it('carries nothing for a vendor it does not list', () => {
    const carrier = carrierWith([ACME]);
    expect(carrier.carriedSignatureOf({ gemini: { thoughtSignature: 'sig' } })).toBeUndefined();
    expect(carrier.signatureFromThinking('gemini:sig')).toBeUndefined();
    expect(carrier.splitToolId('call_1__gemsig0_c2ln')).toEqual({ id: 'call_1__gemsig0_c2ln' });
  });
});
