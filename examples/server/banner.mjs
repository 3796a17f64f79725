// The example server's start-up text: base URL, keys (masked), upstreams, models, and calls to paste.
import { DEMO_KEY, describeLimits, maskKey } from './keys.mjs';

/** The banner's lines for a server on `base` (e.g. http://localhost:8080). */
export function bannerLines({ base, keys, models, configured, admin }) {
  const usesDemo = keys.some((entry) => entry.key === DEMO_KEY);
  // The key in shell commands, and in JavaScript: the demo key itself, or the variable the user exports.
  const shellKey = usesDemo ? DEMO_KEY : '$GATEWAY_KEY';
  const jsKey = usesDemo ? `'${DEMO_KEY}'` : 'process.env.GATEWAY_KEY';
  return [
    `rosetta-gateway listening on ${base}`,
    '',
    'Keys:',
    ...keys.map(
      (entry) =>
        `  ${entry.key === DEMO_KEY ? `${DEMO_KEY} (demo key)` : maskKey(entry.key)}  balance: ${entry.balance ?? 'unmetered'}  ${describeLimits(entry)}`,
    ),
    ...(usesDemo ? [] : ['  (your keys are masked; export GATEWAY_KEY=<one of them> to paste the calls below)']),
    '',
    admin
      ? `Operator routes (Authorization: Bearer $ADMIN_KEY): ${base}/metrics (Prometheus), ${base}/admin/usage?key=&since=&until=&limit=, ${base}/admin/deployments; the dashboard: ${base}/admin/ (password: $ADMIN_KEY)`
      : 'Operator routes: set ADMIN_KEY to serve /metrics, /admin/usage, /admin/deployments and the dashboard at /admin/. Every call is one "usage" line on stderr.',
    '',
    `Upstreams: local${configured.map((name) => `, ${name}`).join('')}`,
    'Models (and any <provider>/<model> id):',
    ...models.map((model) => `  ${model.id.padEnd(24)} ${model.type ?? 'text'}  → ${servedBy(model)}`),
    '',
    'curl (OpenAI chat completions):',
    `  curl ${base}/v1/chat/completions -H "Authorization: Bearer ${shellKey}" -H "Content-Type: application/json" -d '{"model":"rosetta-echo","messages":[{"role":"user","content":"Hello!"}]}'`,
    'curl (Anthropic messages):',
    `  curl ${base}/v1/messages -H "x-api-key: ${shellKey}" -H "anthropic-version: 2023-06-01" -H "Content-Type: application/json" -d '{"model":"rosetta-echo","max_tokens":256,"messages":[{"role":"user","content":"Hello!"}]}'`,
    'curl (Gemini generateContent):',
    `  curl "${base}/v1beta/models/rosetta-echo:generateContent?key=${shellKey}" -H "Content-Type: application/json" -d '{"contents":[{"parts":[{"text":"Hello!"}]}]}'`,
    'curl (OpenAI responses):',
    `  curl ${base}/v1/responses -H "Authorization: Bearer ${shellKey}" -H "Content-Type: application/json" -d '{"model":"rosetta-echo","input":"Hello!"}'`,
    'curl (OpenAI images):',
    `  curl ${base}/v1/images/generations -H "Authorization: Bearer ${shellKey}" -H "Content-Type: application/json" -d '{"model":"rosetta-image","prompt":"a lighthouse","size":"512x512","response_format":"b64_json"}'`,
    'curl (OpenAI embeddings; Gemini :embedContent and :batchEmbedContents too):',
    `  curl ${base}/v1/embeddings -H "Authorization: Bearer ${shellKey}" -H "Content-Type: application/json" -d '{"model":"rosetta-embed","input":["a lighthouse","a harbour light"]}'`,
    '',
    'openai (npm i openai):',
    `  new OpenAI({ baseURL: '${base}/v1', apiKey: ${jsKey} }).chat.completions.create({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hello!' }] })`,
    '@anthropic-ai/sdk:',
    `  new Anthropic({ baseURL: '${base}', apiKey: ${jsKey} }).messages.create({ model: 'rosetta-echo', max_tokens: 256, messages: [{ role: 'user', content: 'Hello!' }] })`,
    '@google/genai:',
    `  new GoogleGenAI({ apiKey: ${jsKey}, httpOptions: { baseUrl: '${base}' } }).models.generateContent({ model: 'rosetta-echo', contents: 'Hello!' })`,
    'ai + @ai-sdk/openai (the Responses API):',
    `  generateText({ model: createOpenAI({ baseURL: '${base}/v1', apiKey: ${jsKey} })('rosetta-echo'), prompt: 'Hello!' })`,
    'Claude Code:',
    `  ANTHROPIC_BASE_URL=${base} ANTHROPIC_AUTH_TOKEN=${shellKey} claude --model rosetta-echo`,
    `Codex CLI (this in ~/.codex/config.toml, then: ${usesDemo ? `GATEWAY_KEY=${DEMO_KEY} ` : ''}codex exec --skip-git-repo-check "Hello!"):`,
    ...codexConfig(base).map((line) => `  ${line}`),
  ];
}

/**
 * A Codex CLI config.toml for this server: a model provider speaking the Responses API, its key read from GATEWAY_KEY.
 */
export function codexConfig(base) {
  return [
    'model = "rosetta-echo"',
    'model_provider = "rosetta"',
    '[model_providers.rosetta]',
    'name = "rosetta-gateway"',
    `base_url = "${base}/v1"`,
    'env_key = "GATEWAY_KEY"',
    'wire_api = "responses"',
  ];
}

/** Where a model entry's calls go: its provider, or its deployments' (`provider/upstream ×weight`). */
function servedBy(model) {
  if (!model.deployments) return model.provider;
  return model.deployments
    .map((deployment) => {
      const upstream = deployment.upstreamModel ?? model.upstreamModel ?? model.id;
      const weight = deployment.weight && deployment.weight !== 1 ? ` ×${deployment.weight}` : '';
      const tier = deployment.priority ? ` (tier ${deployment.priority})` : '';
      return `${deployment.provider}/${upstream}${weight}${tier}`;
    })
    .join(', ');
}
