// The example server behind `npm start`: an Express app with the gateway mounted at the root.
import express from 'express';
import { createGateway } from 'rosetta-gateway';
import { DEMO_KEY, maskKey, parseGatewayKeys } from './keys.mjs';
import { upstreamsFromEnv } from './upstreams.mjs';

const port = Number(process.env.PORT ?? 8080);
const keys = parseGatewayKeys(process.env.GATEWAY_KEYS);
// Upstreams from OPENAI_API_KEY (+ OPENAI_BASE_URL)…; the local provider always. LOCAL_TOKEN_DELAY_MS
// (default 25) slows the local model's streaming so it is visible in the demo.
const { providers, models, configured } = upstreamsFromEnv(process.env);

const app = express();
app.get('/', (_request, response) => {
  response.type('text/plain').send('rosetta-gateway example server. See the README for calls.\n');
});
app.use(createGateway({ keys, providers, models, providerModelIds: true }));

const server = app.listen(port, () => {
  const base = `http://localhost:${server.address().port}`;
  const usesDemo = keys.some((entry) => entry.key === DEMO_KEY);
  const key = usesDemo ? DEMO_KEY : '$GATEWAY_KEY';
  const lines = [
    `rosetta-gateway listening on ${base}`,
    '',
    'Keys:',
    ...keys.map((entry) => `  ${entry.key === DEMO_KEY ? DEMO_KEY + ' (demo key)' : maskKey(entry.key)}  balance: ${entry.balance ?? 'unmetered'}`),
    ...(usesDemo ? [] : ['  (your keys are masked; export GATEWAY_KEY=<one of them> to paste the calls below)']),
    '',
    `Upstreams: local${configured.map((name) => `, ${name}`).join('')}`,
    'Models (and any <provider>/<model> id):',
    ...models.map((model) => `  ${model.id.padEnd(24)} ${model.type ?? 'text'}  → ${model.provider}`),
    '',
    'curl (OpenAI chat completions):',
    `  curl ${base}/v1/chat/completions -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '{"model":"rosetta-echo","messages":[{"role":"user","content":"Hello!"}]}'`,
    'curl (Anthropic messages):',
    `  curl ${base}/v1/messages -H "x-api-key: ${key}" -H "anthropic-version: 2023-06-01" -H "Content-Type: application/json" -d '{"model":"rosetta-echo","max_tokens":256,"messages":[{"role":"user","content":"Hello!"}]}'`,
    'curl (Gemini generateContent):',
    `  curl "${base}/v1beta/models/rosetta-echo:generateContent?key=${key}" -H "Content-Type: application/json" -d '{"contents":[{"parts":[{"text":"Hello!"}]}]}'`,
    'curl (OpenAI images):',
    `  curl ${base}/v1/images/generations -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '{"model":"rosetta-image","prompt":"a lighthouse","size":"512x512","response_format":"b64_json"}'`,
    '',
    'openai (npm i openai):',
    `  new OpenAI({ baseURL: '${base}/v1', apiKey: '${key}' }).chat.completions.create({ model: 'rosetta-echo', messages: [{ role: 'user', content: 'Hello!' }] })`,
    '@anthropic-ai/sdk:',
    `  new Anthropic({ baseURL: '${base}', apiKey: '${key}' }).messages.create({ model: 'rosetta-echo', max_tokens: 256, messages: [{ role: 'user', content: 'Hello!' }] })`,
    '@google/genai:',
    `  new GoogleGenAI({ apiKey: '${key}', httpOptions: { baseUrl: '${base}' } }).models.generateContent({ model: 'rosetta-echo', contents: 'Hello!' })`,
    'Claude Code:',
    `  ANTHROPIC_BASE_URL=${base} ANTHROPIC_AUTH_TOKEN=${key} claude --model rosetta-echo`,
  ];
  console.log(lines.join('\n'));
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
