/** The codec's debug logger (namespace `rosetta:codec`), for what a request carried that the gateway drops. */
import createDebug from 'debug';

export const logCodec = createDebug('rosetta:codec');
