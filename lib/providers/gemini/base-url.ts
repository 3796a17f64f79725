/**
 * The Gemini provider's base URL: the API root (as the Google SDKs and the Gemini CLI take it) gets the `/v1beta`
 * version segment.
 */

/** The Gemini API's root, without a version. */
export const GEMINI_API_ROOT = 'https://generativelanguage.googleapis.com';

/** A path segment naming an API version: `v1`, `v1beta`, `v1alpha`, `v1beta1`, `v2`, … */
const VERSION_SEGMENT = /^v\d+((alpha|beta)\d*)?$/;

/**
 * The base URL the provider calls: `baseUrl` as given when its last path segment is an API version
 * (`…/v1beta`, `…/v1`), otherwise `baseUrl` + `/v1beta` (`https://generativelanguage.googleapis.com`
 * → `https://generativelanguage.googleapis.com/v1beta`; `https://proxy.example/gemini/` →
 * `https://proxy.example/gemini/v1beta`).
 */
export function geminiBaseUrl(baseUrl: string = GEMINI_API_ROOT): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  let last: string;
  try {
    last = new URL(trimmed).pathname.split('/').at(-1) ?? '';
  } catch {
    return baseUrl; // not a URL: the upstream client reports it
  }
  return VERSION_SEGMENT.test(last) ? trimmed : `${trimmed}/v1beta`;
}
