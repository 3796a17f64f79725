/** The codec's debug log (`DEBUG=rosetta:codec`): what it dropped or could not say canonically. */
import createDebug from 'debug';

export const log = createDebug('rosetta:codec');
