/** Types for browser-availability.cjs. */
export declare const BROWSER_TEST_DIR: string;
export declare const CHROMIUM_ARGS: string[];
export declare function chromiumPath(env?: NodeJS.ProcessEnv): string | undefined;
export declare const SKIPPED_LINE: string;
export declare const REQUIRED_MESSAGE: string;
