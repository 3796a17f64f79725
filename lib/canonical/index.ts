/**
 * The canonical request, response and stream types that every protocol codec and provider speaks, one file per
 * concern.
 */
export type * from './content';
export type * from './generate';
export type * from './stream';
export type * from './media';
export type { EmbeddingVector } from './vectors';
