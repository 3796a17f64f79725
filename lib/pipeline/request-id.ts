/** Request ids (`x-request-id`), drawn from a pool of random bytes that belongs to one gateway. */
import { randomBytes } from 'node:crypto';

/** Bytes in one id: 32 hex digits. */
const ID_BYTES = 16;
/** Ids drawn from one `randomBytes` call. */
const IDS_PER_POOL = 256;

/**
 * Makes request ids, `req_` and 32 random hex digits. One `randomBytes` call serves 256 ids (a
 * `randomUUID()` per call and the regex that made it an id cost more). Each gateway has its own,
 * so gateways in one process share no state.
 */
export class RequestIds {
  private pool = Buffer.alloc(0);
  private offset = 0;

  /** The next id. */
  next(): string {
    if (this.offset + ID_BYTES > this.pool.length) {
      this.pool = randomBytes(ID_BYTES * IDS_PER_POOL);
      this.offset = 0;
    }
    const id = this.pool.toString('hex', this.offset, this.offset + ID_BYTES);
    this.offset += ID_BYTES;
    return `req_${id}`;
  }
}
