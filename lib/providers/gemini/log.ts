/** The Gemini provider's debug logger (namespace `rosetta:provider`), for what it drops on the way. */
import createDebug from 'debug';

/** Logs what a request or response carried that the Gemini translation drops. */
export const logProvider = createDebug('rosetta:provider');
