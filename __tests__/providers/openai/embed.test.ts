/** The OpenAI-compatible embeddings body and answer: what is sent (base64 only when the caller asked and it is allowed), what is read back. */
import type { CallWarning, EmbedRequest } from '../../../lib';
import { decodeEmbeddingsResponse, encodeEmbeddingsRequest } from '../../../lib/providers/openai/embed';

const request: EmbedRequest = {
  model: 'public-id',
  inputs: ['a', 'b'],
  dimensions: 64,
  user: 'u-1',
  taskType: 'RETRIEVAL_QUERY',
  extensions: { 'openai-embeddings': { fields: { input_type: 'query' }, encodingFormat: 'base64' } },
};

describe('encodeEmbeddingsRequest', () => {
  it('sends the inputs, dimensions, user and the caller unmodelled fields; taskType dropped with a warning', () => {
    const warnings: CallWarning[] = [];
    expect(
      encodeEmbeddingsRequest(request, 'text-embedding-3-small', true, (warning) => warnings.push(warning)),
    ).toEqual({
      input_type: 'query',
      model: 'text-embedding-3-small',
      input: ['a', 'b'],
      dimensions: 64,
      user: 'u-1',
      encoding_format: 'base64',
    });
    expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported-setting', setting: 'taskType' })]);
  });

  it('asks for floats when base64 is not allowed (embeddingsBase64: false) or not asked for', () => {
    expect(encodeEmbeddingsRequest(request, 'm', false)).not.toHaveProperty('encoding_format');
    expect(encodeEmbeddingsRequest({ model: 'x', inputs: [[1, 2]] }, 'm', true)).toEqual({
      model: 'm',
      input: [[1, 2]],
    });
  });
});

describe('decodeEmbeddingsResponse', () => {
  it('places each vector by its index, decodes base64, and reads prompt_tokens', () => {
    const b64 = Buffer.from(Float32Array.from([0.5, -0.25]).buffer).toString('base64');
    const decoded = decodeEmbeddingsResponse(
      {
        data: [
          { index: 1, embedding: b64 },
          { index: 0, embedding: [0.1, 0.2] },
        ],
        model: 'm-v1',
        usage: { prompt_tokens: 9 },
      },
      2,
      'openai',
      'm',
    );
    expect(decoded.vectors[0]).toEqual([0.1, 0.2]);
    expect(Array.from(decoded.vectors[1]!)).toEqual([0.5, -0.25]);
    expect(decoded).toMatchObject({ model: 'm-v1', usage: { inputTokens: 9 } });
  });

  it('is a 502 upstream_malformed for a missing, repeated or extra index', () => {
    for (const data of [
      [{ index: 0, embedding: [1] }],
      [
        { index: 0, embedding: [1] },
        { index: 0, embedding: [1] },
      ],
      undefined,
    ]) {
      expect(() => decodeEmbeddingsResponse({ data } as never, 2, 'openai', 'm')).toThrow(
        expect.objectContaining({ status: 502, code: 'upstream_malformed' }),
      );
    }
  });
});
