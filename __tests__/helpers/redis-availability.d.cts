/** Types for redis-availability.cjs. */
export declare const REDIS_TEST_DIR: string;
export declare function redisServerOnPath(): boolean;
export declare function redisForTests(env?: NodeJS.ProcessEnv): 'server' | 'url' | undefined;
export declare const SKIPPED_LINE: string;
export declare const REQUIRED_MESSAGE: string;
