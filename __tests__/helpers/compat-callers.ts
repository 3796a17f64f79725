/**
 * The four caller protocols driving a two-turn tool loop through the gateway, each the way its clients do: turn one
 * asks for the weather with a `get_weather` tool, turn two sends back the whole history as the caller got it, plus the
 * tool's result. Used by the compat-reasoning tests.
 */
import { type Json, readJson } from './app';

export const GATEWAY_KEY = 'sk-compat-reasoning-0001';
const PARAMETERS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
export const TOOL_RESULT = '3°C, light snow';

/** One call's outcome: the status and the parsed body (a stream's events gathered into the protocol's answer). */
export interface Reply {
  status: number;
  body: Json;
}

async function post(base: string, path: string, headers: Record<string, string>, body: Json): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function sseData(raw: string): Json[] {
  return raw
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Json);
}

/** A caller protocol: turn one, and turn two from turn one's answer. */
export interface Caller {
  name: string;
  first(base: string, model: string, stream: boolean): Promise<Reply>;
  second(base: string, model: string, stream: boolean, first: Json): Promise<Reply>;
}

// OpenAI chat completions: the SDKs keep the assistant message as they got it (reasoning_content included).
const chatTools = [{ type: 'function', function: { name: 'get_weather', parameters: PARAMETERS } }];
const chatUser = { role: 'user', content: 'Weather in Oslo?' };

async function chatCall(base: string, model: string, stream: boolean, messages: Json[]): Promise<Reply> {
  const response = await post(
    base,
    '/v1/chat/completions',
    { authorization: `Bearer ${GATEWAY_KEY}` },
    {
      model,
      stream,
      messages,
      tools: chatTools,
    },
  );
  if (!stream || response.status !== 200) return { status: response.status, body: await readJson(response) };
  const message: Json = { role: 'assistant', content: '' };
  const calls: Json[] = [];
  for (const event of sseData(await response.text())) {
    const delta = event.choices?.[0]?.delta ?? {};
    if (delta.content) message.content += delta.content;
    if (delta.reasoning_content)
      message.reasoning_content = (message.reasoning_content ?? '') + delta.reasoning_content;
    for (const call of delta.tool_calls ?? []) {
      const index = call.index ?? calls.length;
      calls[index] ??= { id: call.id, type: 'function', function: { name: call.function?.name, arguments: '' } };
      calls[index].function.arguments += call.function?.arguments ?? '';
    }
  }
  if (calls.length > 0) message.tool_calls = calls;
  return { status: 200, body: { choices: [{ message }] } };
}

export const chatCaller: Caller = {
  name: 'OpenAI chat',
  first: (base, model, stream) => chatCall(base, model, stream, [chatUser]),
  second: (base, model, stream, first) => {
    const message = first.choices[0].message as Json;
    const { refusal: _refusal, annotations: _annotations, ...sent } = message;
    return chatCall(base, model, stream, [
      chatUser,
      sent,
      { role: 'tool', tool_call_id: message.tool_calls[0].id, content: TOOL_RESULT },
    ]);
  },
};

// Anthropic messages: the whole content array goes back (thinking blocks with their signatures, tool_use blocks).
const anthropicTools = [{ name: 'get_weather', description: 'The weather of a city.', input_schema: PARAMETERS }];
const anthropicUser = { role: 'user', content: 'Weather in Oslo?' };

async function anthropicCall(base: string, model: string, stream: boolean, messages: Json[]): Promise<Reply> {
  const response = await post(
    base,
    '/v1/messages',
    { 'x-api-key': GATEWAY_KEY, 'anthropic-version': '2023-06-01' },
    {
      model,
      max_tokens: 4096,
      stream,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages,
      tools: anthropicTools,
    },
  );
  if (!stream || response.status !== 200) return { status: response.status, body: await readJson(response) };
  const content: Json[] = [];
  const json: string[] = [];
  for (const event of sseData(await response.text())) {
    if (event.type === 'content_block_start') {
      content[event.index] = { ...event.content_block };
      json[event.index] = '';
    } else if (event.type === 'content_block_delta') {
      const block = content[event.index]!;
      const delta = event.delta;
      if (delta.type === 'thinking_delta') block.thinking += delta.thinking;
      if (delta.type === 'signature_delta') block.signature = delta.signature;
      if (delta.type === 'text_delta') block.text += delta.text;
      if (delta.type === 'input_json_delta') json[event.index] += delta.partial_json;
    } else if (event.type === 'content_block_stop' && content[event.index]!.type === 'tool_use') {
      content[event.index]!.input = JSON.parse(json[event.index] || '{}');
    }
  }
  return { status: 200, body: { content } };
}

export const anthropicCaller: Caller = {
  name: 'Anthropic',
  first: (base, model, stream) => anthropicCall(base, model, stream, [anthropicUser]),
  second: (base, model, stream, first) => {
    const content = first.content as Json[];
    const call = content.find((block) => block.type === 'tool_use')!;
    return anthropicCall(base, model, stream, [
      anthropicUser,
      { role: 'assistant', content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: TOOL_RESULT }] },
    ]);
  },
};

// Gemini generateContent: the model's parts go back as they came (thought parts, signatures on their parts).
const geminiTools = [{ functionDeclarations: [{ name: 'get_weather', parameters: PARAMETERS }] }];
const geminiUser = { role: 'user', parts: [{ text: 'Weather in Oslo?' }] };

async function geminiCall(base: string, model: string, stream: boolean, contents: Json[]): Promise<Reply> {
  const path = stream
    ? `/v1beta/models/${model}:streamGenerateContent?alt=sse`
    : `/v1beta/models/${model}:generateContent`;
  const response = await post(
    base,
    path,
    { 'x-goog-api-key': GATEWAY_KEY },
    {
      contents,
      tools: geminiTools,
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    },
  );
  if (!stream || response.status !== 200) return { status: response.status, body: await readJson(response) };
  const parts = sseData(await response.text()).flatMap((event) => event.candidates?.[0]?.content?.parts ?? []);
  return { status: 200, body: { candidates: [{ content: { role: 'model', parts } }] } };
}

export const geminiCaller: Caller = {
  name: 'Gemini',
  first: (base, model, stream) => geminiCall(base, model, stream, [geminiUser]),
  second: (base, model, stream, first) => {
    const parts = first.candidates[0].content.parts as Json[];
    const call = parts.find((part) => part.functionCall)!.functionCall;
    return geminiCall(base, model, stream, [
      geminiUser,
      { role: 'model', parts },
      {
        role: 'user',
        parts: [{ functionResponse: { name: call.name, id: call.id, response: { result: TOOL_RESULT } } }],
      },
    ]);
  },
};

// OpenAI Responses (stateless, as Codex runs): the output items go back as they came, then the call's output.
const responsesTools = [{ type: 'function', name: 'get_weather', parameters: PARAMETERS }];
const responsesUser = { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather in Oslo?' }] };

async function responsesCall(base: string, model: string, stream: boolean, input: Json[]): Promise<Reply> {
  const response = await post(
    base,
    '/v1/responses',
    { authorization: `Bearer ${GATEWAY_KEY}` },
    {
      model,
      stream,
      store: false,
      include: ['reasoning.encrypted_content'],
      input,
      tools: responsesTools,
    },
  );
  if (!stream || response.status !== 200) return { status: response.status, body: await readJson(response) };
  const completed = sseData(await response.text()).find((event) => event.type === 'response.completed');
  return { status: 200, body: completed!.response };
}

export const responsesCaller: Caller = {
  name: 'Responses',
  first: (base, model, stream) => responsesCall(base, model, stream, [responsesUser]),
  second: (base, model, stream, first) => {
    const output = first.output as Json[];
    const call = output.find((item) => item.type === 'function_call')!;
    return responsesCall(base, model, stream, [
      responsesUser,
      ...output,
      { type: 'function_call_output', call_id: call.call_id, output: TOOL_RESULT },
    ]);
  },
};

export const ALL_CALLERS: readonly Caller[] = [chatCaller, anthropicCaller, geminiCaller, responsesCaller];
