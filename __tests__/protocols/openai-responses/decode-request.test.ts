/**
 * The Responses codec's decoder: every input form into the canonical request, every bad input a 400 naming its field.
 */
import { decodeResponsesRequest } from '../../../lib/protocols/openai-responses/decode-request';
import { GatewayError } from '../../../lib/errors';

const decode = (body: Record<string, unknown>) => decodeResponsesRequest({ model: 'm', ...body });

function rejects(body: Record<string, unknown>, param: string): GatewayError {
  try {
    decode(body);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    const gatewayError = error as GatewayError;
    expect(gatewayError.status).toBe(400);
    expect(gatewayError.param).toBe(param);
    expect(gatewayError.message).toContain(param);
    return gatewayError;
  }
  throw new Error(`expected a 400 for ${param}`);
}

describe('decodeResponsesRequest: input', () => {
  it('a string input is one user message; instructions a system message first', () => {
    const request = decode({ input: 'Hello', instructions: 'Be brief.', stream: true });
    expect(request.stream).toBe(true);
    expect(request.messages).toEqual([
      {
        role: 'system',
        content: [{ type: 'text', text: 'Be brief.' }],
        extensions: { 'openai-responses': { instructions: true } },
      },
      { role: 'user', content: [{ type: 'text', text: 'Hello' }] },
    ]);
  });

  it('message items of every role and part; each user or system item its own message, in its wire role', () => {
    const request = decode({
      input: [
        { type: 'message', id: 'msg_1', role: 'developer', content: [{ type: 'input_text', text: 'System A' }] },
        { role: 'system', content: 'System B' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look:' },
            { type: 'input_image', image_url: 'https://example.com/cat.png', detail: 'low' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
            { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'a.pdf' },
            { type: 'input_file', file_url: 'https://example.com/b.pdf' },
          ],
        },
        {
          type: 'message',
          role: 'assistant',
          content: [
            { type: 'output_text', text: 'Sure.', annotations: [] },
            { type: 'refusal', refusal: 'No.' },
          ],
        },
      ],
    });
    expect(request.messages).toHaveLength(4);
    expect(request.messages[0]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'System A' }],
      extensions: { 'openai-responses': { role: 'developer' } },
    });
    expect(request.messages[1]).toEqual({
      role: 'system',
      content: [{ type: 'text', text: 'System B' }],
      extensions: { 'openai-responses': { role: 'system' } },
    });
    expect(request.messages[2]!.content).toEqual([
      { type: 'text', text: 'Look:' },
      { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.png' }, detail: 'low' },
      { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'a.pdf' },
      { type: 'file', source: { kind: 'url', url: 'https://example.com/b.pdf' } },
    ]);
    expect(request.messages[3]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Sure.', extensions: { 'openai-responses': { annotations: [] } } },
        { type: 'text', text: 'No.', extensions: { 'openai-responses': { type: 'refusal' } } },
      ],
    });
  });

  it('function calls join the assistant turn; their outputs are tool results (string or parts)', () => {
    const request = decode({
      input: [
        { role: 'user', content: 'Weather?' },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [
            { type: 'summary_text', text: 'Think' },
            { type: 'summary_text', text: 'more' },
          ],
        },
        { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_b', name: 'time', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'Sunny' },
        {
          type: 'function_call_output',
          call_id: 'call_b',
          output: [
            { type: 'input_text', text: '12:00' },
            { type: 'input_image', image_url: 'https://example.com/clock.png' },
          ],
        },
      ],
    });
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(request.messages[1]!.content).toEqual([
      { type: 'reasoning', text: 'Think\n\nmore', extensions: { 'openai-responses': { id: 'rs_1' } } },
      {
        type: 'tool-call',
        id: 'call_a',
        name: 'weather',
        arguments: '{"city":"Paris"}',
        extensions: { 'openai-responses': { id: 'fc_1' } },
      },
      { type: 'tool-call', id: 'call_b', name: 'time', arguments: '{}' },
    ]);
    expect(request.messages[2]!.content).toEqual([
      { type: 'tool-result', toolCallId: 'call_a', content: [{ type: 'text', text: 'Sunny' }] },
      {
        type: 'tool-result',
        toolCallId: 'call_b',
        content: [
          { type: 'text', text: '12:00' },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/clock.png' } },
        ],
      },
    ]);
  });

  it('custom tool calls become calls with {"input"} arguments, marked so they return as custom calls', () => {
    const request = decode({
      input: [
        { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: 'done' },
      ],
    });
    expect(request.messages[0]!.content).toEqual([
      {
        type: 'tool-call',
        id: 'c1',
        name: 'apply_patch',
        arguments: '{"input":"*** Begin Patch"}',
        extensions: { 'openai-responses': { type: 'custom_tool_call' } },
      },
    ]);
    expect(request.messages[1]!.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'c1',
        content: [{ type: 'text', text: 'done' }],
        extensions: { 'openai-responses': { type: 'custom_tool_call_output' } },
      },
    ]);
  });

  it('a namespaced call is named as its flattened tool', () => {
    const request = decode({
      input: [{ type: 'function_call', call_id: 'c', namespace: 'crm', name: 'lookup', arguments: '{}' }],
    });
    expect(request.messages[0]!.content[0]).toMatchObject({ type: 'tool-call', name: 'crm__lookup' });
  });

  it('reasoning encrypted_content: a tagged vendor signature comes back to its vendor; an untagged one stays in the extension', () => {
    const request = decode({
      input: [
        { type: 'reasoning', summary: [], encrypted_content: 'rosetta.signature:EqQBCkYIBxgCKkBsig==' },
        { type: 'reasoning', summary: [], encrypted_content: 'gemini:CiQBsig' },
        { type: 'reasoning', summary: [], encrypted_content: 'rosetta.redacted:opaque' },
        { type: 'reasoning', id: 'rs_x', summary: [], encrypted_content: 'gAAAAABopenai' },
        { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'raw thought' }] },
      ],
    });
    expect(request.messages[0]!.content).toEqual([
      { type: 'reasoning', text: '', signature: 'EqQBCkYIBxgCKkBsig==' },
      { type: 'reasoning', text: '', providerMetadata: { gemini: { thoughtSignature: 'CiQBsig' } } },
      { type: 'reasoning', text: '', redactedData: 'opaque' },
      {
        type: 'reasoning',
        text: '',
        extensions: { 'openai-responses': { encrypted_content: 'gAAAAABopenai', id: 'rs_x' } },
      },
      { type: 'reasoning', text: 'raw thought' },
    ]);
  });

  it('a reasoning item with content: null (as Codex CLI resends it) reads its summary', () => {
    const request = decode({
      input: [
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Thought.' }],
          content: null,
          encrypted_content: null,
        },
      ],
    });
    expect(request.messages[0]!.content).toEqual([
      { type: 'reasoning', text: 'Thought.', extensions: { 'openai-responses': { id: 'rs_1' } } },
    ]);
  });

  it('a message item with content: null is a 400 naming it', () => {
    rejects({ input: [{ type: 'message', role: 'user', content: null }] }, 'input[0].content');
  });

  it('a signature carried in a call_id returns as the call metadata, the id cleaned', () => {
    const request = decode({
      input: [{ type: 'function_call', call_id: 'call_1__gemsig0_CiQB', name: 'f', arguments: '{}' }],
    });
    expect(request.messages[0]!.content[0]).toEqual({
      type: 'tool-call',
      id: 'call_1',
      name: 'f',
      arguments: '{}',
      providerMetadata: { gemini: { thoughtSignature: 'CiQB' } },
    });
  });
});

describe('decodeResponsesRequest: settings', () => {
  it('tools: function flat, custom as one string parameter, namespace flattened, built-ins kept in the extension', () => {
    const request = decode({
      input: 'x',
      tools: [
        {
          type: 'function',
          name: 'weather',
          description: 'Weather',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
          strict: true,
          defer_loading: true,
        },
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Patch',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
        },
        {
          type: 'namespace',
          name: 'crm',
          description: 'CRM tools',
          tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
        },
        { type: 'web_search', external_web_access: false },
      ],
    });
    expect(request.tools).toEqual([
      {
        name: 'weather',
        description: 'Weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
        strict: true,
        extensions: { 'openai-responses': { defer_loading: true } },
      },
      {
        name: 'apply_patch',
        description: 'Patch',
        parameters: {
          type: 'object',
          properties: { input: { type: 'string' } },
          required: ['input'],
          additionalProperties: false,
        },
        extensions: {
          'openai-responses': {
            type: 'custom',
            format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' },
          },
        },
      },
      {
        name: 'crm__lookup',
        parameters: { type: 'object' },
        extensions: { 'openai-responses': { namespace: 'crm', name: 'lookup', namespace_description: 'CRM tools' } },
      },
    ]);
    expect(request.extensions?.['openai-responses']).toEqual({
      tools: [{ type: 'web_search', external_web_access: false }],
    });
  });

  it('tool_choice in all its forms', () => {
    expect(decode({ input: 'x', tool_choice: 'required' }).toolChoice).toEqual({ type: 'required' });
    expect(decode({ input: 'x', tool_choice: { type: 'function', name: 'f' } }).toolChoice).toEqual({
      type: 'tool',
      name: 'f',
    });
    expect(decode({ input: 'x', tool_choice: { type: 'custom', name: 'p' } }).toolChoice).toEqual({
      type: 'tool',
      name: 'p',
    });
    const allowed = { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'f' }] };
    const request = decode({ input: 'x', tool_choice: allowed });
    expect(request.toolChoice).toEqual({ type: 'required' });
    expect(request.extensions?.['openai-responses']).toEqual({ tool_choice: allowed });
    const builtin = decode({ input: 'x', tool_choice: { type: 'web_search_preview' } });
    expect(builtin.toolChoice).toEqual({ type: 'auto' });
    expect(builtin.extensions?.['openai-responses']).toEqual({ tool_choice: { type: 'web_search_preview' } });
  });

  it('text format, verbosity, reasoning, sampling, user, and the unmodelled fields', () => {
    const request = decode({
      input: 'x',
      text: {
        format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true },
        verbosity: 'low',
      },
      reasoning: { effort: 'high', summary: 'auto' },
      max_output_tokens: 100,
      temperature: 0.5,
      top_p: 0.9,
      parallel_tool_calls: false,
      safety_identifier: 'u-1',
      metadata: { a: 'b' },
      store: false,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'k',
      client_metadata: { x: 1 },
      truncation: 'auto',
      service_tier: 'flex',
    });
    expect(request).toMatchObject({
      responseFormat: { type: 'json-schema', name: 'out', schema: { type: 'object' }, strict: true },
      reasoning: { enabled: true, effort: 'high', includeThoughts: true },
      maxOutputTokens: 100,
      temperature: 0.5,
      topP: 0.9,
      parallelToolCalls: false,
      user: 'u-1',
      promptCacheKey: 'k',
    });
    expect(request.extensions?.['openai-responses']).toEqual({
      text: { verbosity: 'low' },
      reasoning: { summary: 'auto' },
      metadata: { a: 'b' },
      store: false,
      include: ['reasoning.encrypted_content'],
      client_metadata: { x: 1 },
      truncation: 'auto',
      service_tier: 'flex',
    });
    expect(decode({ input: 'x', text: { format: { type: 'json_object' } } }).responseFormat).toEqual({ type: 'json' });
    expect(decode({ input: 'x', reasoning: { effort: 'none' } }).reasoning).toEqual({ enabled: false, effort: 'none' });
    expect(decode({ input: 'x', user: 'u-2' }).user).toBe('u-2');
    expect(decode({ input: 'x' }).extensions).toBeUndefined();
  });
});

describe('decodeResponsesRequest: bad input', () => {
  it.each([
    [{ input: 'x', model: '' }, 'model'],
    [{ input: 5 }, 'input'],
    [{ input: [] }, 'input'],
    [{}, 'input'],
    [{ input: [{ role: 'robot', content: 'x' }] }, 'input[0].role'],
    [{ input: [{ role: 'user', content: 5 }] }, 'input[0].content'],
    [{ input: [{ role: 'user', content: [{ type: 'input_text' }] }] }, 'input[0].content[0].text'],
    [{ input: [{ role: 'user', content: [{ type: 'video' }] }] }, 'input[0].content[0].type'],
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1' }] }] },
      'input[0].content[0].file_id',
    ],
    [
      { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] },
      'input[0].content[0].file_id',
    ],
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64' }] }] },
      'input[0].content[0].image_url',
    ],
    [{ input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }, 'input[0].content[0].type'],
    [
      { input: [{ role: 'assistant', content: [{ type: 'input_image', image_url: 'https://x/y.png' }] }] },
      'input[0].content[0].type',
    ],
    [{ input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id'],
    [{ input: [{ type: 'function_call', call_id: 'c', arguments: '{}' }] }, 'input[0].name'],
    [{ input: [{ type: 'function_call_output', call_id: 'c' }] }, 'input[0].output'],
    [{ input: [{ type: 'custom_tool_call', call_id: 'c', name: 'p' }] }, 'input[0].input'],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type'],
    [{ input: [{ type: 'reasoning', summary: [{ type: 'summary_text' }] }] }, 'input[0].summary[0].text'],
    [{ input: 'x', tools: [{ type: 'function' }] }, 'tools[0].name'],
    [{ input: 'x', tools: [{ type: 'namespace', name: 'n' }] }, 'tools[0].tools'],
    [
      { input: 'x', tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'web_search' }] }] },
      'tools[0].tools[0].type',
    ],
    [{ input: 'x', tool_choice: 'sometimes' }, 'tool_choice'],
    [{ input: 'x', tool_choice: { type: 'function' } }, 'tool_choice.name'],
    [{ input: 'x', tool_choice: { type: 'allowed_tools', mode: 'never', tools: [] } }, 'tool_choice.mode'],
    [{ input: 'x', text: { format: { type: 'json_schema', schema: {} } } }, 'text.format.name'],
    [{ input: 'x', text: { format: { type: 'yaml' } } }, 'text.format.type'],
    [{ input: 'x', reasoning: { effort: 'huge' } }, 'reasoning.effort'],
    [{ input: 'x', max_output_tokens: 0 }, 'max_output_tokens'],
    [{ input: 'x', temperature: 3 }, 'temperature'],
    [{ input: 'x', metadata: { a: 1 } }, 'metadata.a'],
    [{ input: 'x', background: true }, 'background'],
    [{ input: 'x', conversation: 'conv_1' }, 'conversation'],
  ])('%j → 400 naming %s', (body, param) => {
    rejects(body, param);
  });

  it('previous_response_id is left to the gateway (its response store): decoded, never in the extension an upstream gets', () => {
    const request = decodeResponsesRequest({ model: 'm', input: 'x', previous_response_id: 'resp_1', store: true });
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'x' }] }]);
    expect(request.extensions?.['openai-responses']).toEqual({ store: true });
  });
});
