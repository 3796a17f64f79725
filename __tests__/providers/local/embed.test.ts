/**
 * The local embedding model: deterministic, 256 dimensions by default (any length up to its maximum), L2-normalised,
 * and lexical: texts that share words score a higher cosine than texts that share none.
 */
import { GatewayError, LocalProvider } from '../../../lib';
import { LOCAL_EMBED_DIMENSIONS, LOCAL_EMBED_MAX_DIMENSIONS } from '../../../lib/extend';
import type { CallWarning, EmbedRequest } from '../../../lib';

const provider = new LocalProvider();

function embed(request: Partial<EmbedRequest> & { inputs: EmbedRequest['inputs'] }, warnings: CallWarning[] = []) {
  const context = {
    upstreamModel: 'rosetta-embed',
    requestId: 'req_test',
    signal: new AbortController().signal,
    warn: (warning: CallWarning) => warnings.push(warning),
  };
  return provider.embed({ model: 'rosetta-embed', ...request }, context);
}

const norm = (vector: ArrayLike<number>) =>
  Math.sqrt(Array.from(vector).reduce((sum, value) => sum + value * value, 0));
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a).reduce((sum, value, index) => sum + value * b[index]!, 0) / (norm(a) * norm(b));

describe('LocalProvider.embed (rosetta-embed)', () => {
  it('is among the default models as an embedding model', () => {
    expect(provider.defaultModels).toContainEqual(
      expect.objectContaining({ id: 'rosetta-embed', type: 'embedding', provider: 'local' }),
    );
  });

  it('answers one L2-normalised vector of 256 dimensions per input, in order, the same for the same text', () => {
    const texts = ['the quick brown fox', 'a lazy dog sleeps', 'the quick brown fox'];
    const { vectors } = embed({ inputs: texts });
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toHaveLength(LOCAL_EMBED_DIMENSIONS);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    expect(Array.from(vectors[2]!)).toEqual(Array.from(vectors[0]!));
    expect(Array.from(vectors[1]!)).not.toEqual(Array.from(vectors[0]!));
    expect(Array.from(embed({ inputs: ['a lazy dog sleeps'] }).vectors[0]!)).toEqual(Array.from(vectors[1]!));
  });

  it('scores texts that share words higher than unrelated texts', () => {
    const [query, related, unrelated] = embed({
      inputs: [
        'how do I reset my router password',
        'steps to reset the password of a wifi router',
        'a recipe for lemon cake with fresh berries',
      ],
    }).vectors;
    expect(cosine(query!, related!)).toBeGreaterThan(cosine(query!, unrelated!) + 0.2);
    // Word pieces count too: an inflected form is closer than an unrelated word.
    const [walk, walking, banana] = embed({ inputs: ['walking', 'walked', 'banana'] }).vectors;
    expect(cosine(walk!, walking!)).toBeGreaterThan(cosine(walk!, banana!));
  });

  it('honours dimensions up to its maximum, and refuses 0 or more than the maximum with a 400', () => {
    expect(embed({ inputs: ['x'], dimensions: 64 }).vectors[0]).toHaveLength(64);
    expect(embed({ inputs: ['x'], dimensions: LOCAL_EMBED_MAX_DIMENSIONS }).vectors[0]).toHaveLength(
      LOCAL_EMBED_MAX_DIMENSIONS,
    );
    for (const dimensions of [0, LOCAL_EMBED_MAX_DIMENSIONS + 1]) {
      expect(() => embed({ inputs: ['x'], dimensions })).toThrow(GatewayError);
      try {
        embed({ inputs: ['x'], dimensions });
      } catch (error) {
        expect(error).toMatchObject({ kind: 'invalid_request', status: 400, param: 'dimensions' });
      }
    }
  });

  it('embeds token ids and text without words (punctuation) as unit vectors too', () => {
    const { vectors } = embed({ inputs: [[1, 2, 3], '?!', [1, 2, 3]] });
    expect(norm(vectors[0]!)).toBeCloseTo(1, 5);
    expect(norm(vectors[1]!)).toBeCloseTo(1, 5);
    expect(Array.from(vectors[2]!)).toEqual(Array.from(vectors[0]!));
  });

  it('drops taskType and title with a typed warning: a lexical model has neither', () => {
    const warnings: CallWarning[] = [];
    embed({ inputs: ['x'], taskType: 'RETRIEVAL_DOCUMENT', title: 'A title' }, warnings);
    expect(warnings).toEqual([
      expect.objectContaining({ type: 'unsupported-setting', setting: 'taskType' }),
      expect.objectContaining({ type: 'unsupported-setting', setting: 'title' }),
    ]);
  });
});
