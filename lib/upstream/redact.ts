/**
 * Removes upstream secrets from text an upstream sent back (error messages, stream error events) before it is relayed
 * or kept.
 */
import { GatewayError } from '../errors';

/** What a secret is replaced with. */
export const REDACTED = '[redacted]';

/** Configured secrets shorter than this are not searched for: they would match ordinary words. */
export const MIN_SECRET_LENGTH = 6;

/** Header names whose values are credentials (their values are redacted wherever they come back). */
const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|password|cookie|signature|credential/i;

/**
 * Text that looks like a credential whoever it belongs to: OpenAI (`sk-…`, `sk-proj-…`), Anthropic
 * (`sk-ant-…`), Groq (`gsk_…`), Google (`AIza…`), xAI (`xai-…`), Hugging Face (`hf_…`), GitHub
 * (`ghp_…`, `github_pat_…`), AWS access key ids (`AKIA…`), bearer tokens, and a long key-like
 * string (letters and digits, 20 or more characters) shortly after the word key, token, secret or
 * password ("Incorrect API key provided: …").
 */
const KEY_LIKE: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:sk|xai)-[A-Za-z0-9_\-*.]{8,}/g, REDACTED],
  [/\b(?:gsk|hf|ghp|gho|ghs|github_pat)_[A-Za-z0-9_]{8,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [
    /\b((?:key|token|secret|password)s?\b[^\n]{0,24}?)(?=[A-Za-z._~+/=-]*[0-9])(?=[0-9._~+/=-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9._~+/=-]{19,}/gi,
    `$1${REDACTED}`,
  ],
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The forms a secret may take in relayed text: as is, percent-encoded, JSON-escaped. */
function formsOf(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * The secrets among an upstream's headers: the values of credential headers (`authorization`,
 * `x-api-key`, `x-goog-api-key`, anything named like a key, token, secret or password), and the
 * token of an `Authorization: <scheme> <token>` value.
 */
export function headerSecrets(headers: Readonly<Record<string, string>>): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value !== 'string' || !CREDENTIAL_HEADER.test(name)) continue;
    secrets.push(value);
    const token = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (token) secrets.push(token);
  }
  return secrets;
}

/**
 * Redacts one upstream's secrets (each configured value, in every form it may come back in) and
 * anything that looks like a credential from text it sent back. Made once per upstream client.
 */
export class SecretRedactor {
  private readonly literal: RegExp | undefined;

  constructor(secrets: Iterable<string>) {
    const forms = [...new Set([...secrets].filter((secret) => typeof secret === 'string').flatMap(formsOf))];
    // Longest first, so a secret that contains another is replaced whole.
    forms.sort((a, b) => b.length - a.length);
    this.literal = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join('|'), 'g') : undefined;
  }

  /** The text without secrets. */
  text(text: string): string {
    let result = this.literal ? text.replace(this.literal, REDACTED) : text;
    for (const [pattern, replacement] of KEY_LIKE) result = result.replace(pattern, replacement);
    return result;
  }

  /**
   * The error with its message, and the upstream body kept in its `cause` for logs, redacted (the
   * same error when there was nothing to redact). Anything else is returned unchanged.
   */
  error<T>(error: T): T | GatewayError {
    if (!(error instanceof GatewayError)) return error;
    const message = this.text(error.message);
    const cause = this.cause(error.cause);
    if (message === error.message && cause === error.cause) return error;
    return new GatewayError(error.kind, message, {
      status: error.status,
      ...(error.param !== undefined ? { param: error.param } : {}),
      ...(error.code !== undefined ? { code: error.code } : {}),
      ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
      ...(error.headers !== undefined ? { headers: this.headers(error.headers) } : {}),
      ...(cause !== undefined ? { cause } : {}),
    });
  }

  private headers(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, this.text(value)]));
  }

  /** A cause `{upstreamStatus, upstreamBody}` with its body redacted; other causes as they are. */
  private cause(cause: unknown): unknown {
    if (typeof cause !== 'object' || cause === null) return cause;
    const body = (cause as { upstreamBody?: unknown }).upstreamBody;
    if (typeof body !== 'string') return cause;
    const redacted = this.text(body);
    return redacted === body ? cause : { ...cause, upstreamBody: redacted };
  }
}
