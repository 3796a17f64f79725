/**
 * The Responses codec's Response object: every required field, the output items under the caller's names, usage,
 * incomplete ends, signatures in encrypted_content.
 */
import type { ContentPart, FinishReason, GenerateResponse } from '../../../lib/canonical';
import { decodeResponsesRequest } from '../../../lib/protocols/openai-responses/decode-request';
import { encodeResponsesResponse } from '../../../lib/protocols/openai-responses/encode-response';
import { OPEN_RESPONSES_REQUIRED_FIELDS } from '../../helpers/open-responses';

function answer(content: ContentPart[], finishReason: FinishReason = { unified: 'stop' }): GenerateResponse {
  return {
    id: 'chatcmpl-abc123',
    model: 'm',
    created: 1_700_000_000,
    choices: [{ index: 0, content, finishReason }],
    usage: { inputTokens: 20, outputTokens: 8, cacheReadTokens: 5, reasoningTokens: 3 },
  };
}

const TOOLS = [
  {
    type: 'function',
    name: 'weather',
    description: 'Weather',
    parameters: { type: 'object', properties: {} },
    strict: true,
  },
  { type: 'custom', name: 'apply_patch', description: 'Patch', format: { type: 'text' } },
  {
    type: 'namespace',
    name: 'crm',
    description: 'CRM',
    tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' } }],
  },
  { type: 'web_search' },
];

describe('encodeResponsesResponse', () => {
  it('a text answer: every required field, numbers not nulls, usage with cached and reasoning tokens', () => {
    const request = decodeResponsesRequest({
      model: 'm',
      input: 'hi',
      instructions: 'Be brief.',
      metadata: { a: 'b' },
    });
    const body = encodeResponsesResponse(
      answer([
        { type: 'text', text: 'Hello' },
        { type: 'text', text: ' there' },
      ]),
      request,
    );
    for (const field of OPEN_RESPONSES_REQUIRED_FIELDS) expect(body).toHaveProperty(field);
    expect(body).toMatchObject({
      id: 'resp_abc123',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      model: 'm',
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      temperature: 1,
      top_p: 1,
      presence_penalty: 0,
      frequency_penalty: 0,
      service_tier: 'default',
      previous_response_id: null,
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      metadata: { a: 'b' },
      text: { format: { type: 'text' }, verbosity: 'medium' },
      usage: {
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 5 },
        output_tokens: 8,
        output_tokens_details: { reasoning_tokens: 3 },
        total_tokens: 28,
      },
    });
    expect(body.output).toEqual([
      {
        type: 'message',
        id: 'msg_abc123_0',
        status: 'completed',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Hello', annotations: [], logprobs: [] },
          { type: 'output_text', text: ' there', annotations: [], logprobs: [] },
        ],
      },
    ]);
  });

  it('a length cut is incomplete with max_output_tokens; a content filter with content_filter', () => {
    const cut = encodeResponsesResponse(answer([{ type: 'text', text: 'one two' }], { unified: 'length' }), undefined);
    expect(cut).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      completed_at: null,
    });
    expect((cut.output as Array<{ status: string }>)[0]!.status).toBe('incomplete');
    const filtered = encodeResponsesResponse(answer([], { unified: 'content-filter' }), undefined);
    expect(filtered).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } });
  });

  it('tools echoed as given; calls returned under the caller names: function, custom, namespaced', () => {
    const request = decodeResponsesRequest({
      model: 'm',
      input: 'x',
      tools: TOOLS,
      tool_choice: { type: 'function', name: 'weather' },
    });
    const body = encodeResponsesResponse(
      answer(
        [
          { type: 'text', text: 'Calling.' },
          { type: 'tool-call', id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_2', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
          { type: 'tool-call', id: 'call_3', name: 'crm__lookup', arguments: '{}' },
        ],
        { unified: 'tool-calls' },
      ),
      request,
    );
    expect(body.tools).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Weather',
        parameters: { type: 'object', properties: {} },
        strict: true,
      },
      { type: 'custom', name: 'apply_patch', description: 'Patch', format: { type: 'text' } },
      {
        type: 'namespace',
        name: 'crm',
        description: 'CRM',
        tools: [{ type: 'function', name: 'lookup', description: null, parameters: { type: 'object' }, strict: false }],
      },
      { type: 'web_search' },
    ]);
    expect(body.tool_choice).toEqual({ type: 'function', name: 'weather' });
    expect(body.status).toBe('completed');
    expect(body.output).toEqual([
      expect.objectContaining({ type: 'message', id: 'msg_abc123_0' }),
      {
        type: 'function_call',
        id: 'fc_abc123_1',
        status: 'completed',
        call_id: 'call_1',
        name: 'weather',
        arguments: '{"city":"Paris"}',
      },
      {
        type: 'custom_tool_call',
        id: 'ctc_abc123_2',
        status: 'completed',
        call_id: 'call_2',
        name: 'apply_patch',
        input: '*** Begin Patch',
      },
      {
        type: 'function_call',
        id: 'fc_abc123_3',
        status: 'completed',
        call_id: 'call_3',
        name: 'lookup',
        namespace: 'crm',
        arguments: '{}',
      },
    ]);
  });

  it('reasoning: a summary; the signature in encrypted_content when included, and back to the same canonical part on the next turn', () => {
    const request = decodeResponsesRequest({
      model: 'm',
      input: 'x',
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'low', summary: 'auto' },
    });
    const anthropic: ContentPart = { type: 'reasoning', text: 'Let me think.', signature: 'EqQBsig==' };
    const gemini: ContentPart = {
      type: 'reasoning',
      text: '',
      providerMetadata: { gemini: { thoughtSignature: 'CiQB' } },
    };
    const body = encodeResponsesResponse(answer([anthropic, gemini, { type: 'text', text: 'Done' }]), request);
    const items = body.output as Array<Record<string, unknown>>;
    expect(items[0]).toEqual({
      type: 'reasoning',
      id: 'rs_abc123_0',
      summary: [{ type: 'summary_text', text: 'Let me think.' }],
      encrypted_content: expect.any(String),
    });
    expect(items[1]).toMatchObject({ type: 'reasoning', summary: [] });
    expect(body.reasoning).toEqual({ effort: 'low', summary: 'auto' });
    const next = decodeResponsesRequest({
      model: 'm',
      input: [{ role: 'user', content: 'x' }, items[0], items[1], { role: 'user', content: 'more' }],
    });
    expect(next.messages[1]!.content).toEqual([
      expect.objectContaining({ type: 'reasoning', text: 'Let me think.', signature: 'EqQBsig==' }),
      expect.objectContaining({
        type: 'reasoning',
        text: '',
        providerMetadata: { gemini: { thoughtSignature: 'CiQB' } },
      }),
    ]);
    expect(next.messages[1]!.content[0]).not.toHaveProperty('providerMetadata');
    expect(next.messages[1]!.content[1]).not.toHaveProperty('signature');

    const notIncluded = encodeResponsesResponse(
      answer([anthropic, { type: 'text', text: 'Done' }]),
      decodeResponsesRequest({ model: 'm', input: 'x' }),
    );
    expect((notIncluded.output as Array<Record<string, unknown>>)[0]).not.toHaveProperty('encrypted_content');
    const beforeCall = encodeResponsesResponse(
      answer([anthropic, { type: 'tool-call', id: 'c', name: 'f', arguments: '{}' }]),
      decodeResponsesRequest({ model: 'm', input: 'x' }),
    );
    expect((beforeCall.output as Array<Record<string, unknown>>)[0]).toHaveProperty('encrypted_content');
  });

  it('a tool call signature rides in its call_id and comes back as the call metadata', () => {
    const body = encodeResponsesResponse(
      answer([
        {
          type: 'tool-call',
          id: 'call_9',
          name: 'f',
          arguments: '{}',
          providerMetadata: { gemini: { thoughtSignature: 'CiQBAA==' } },
        },
      ]),
      undefined,
    );
    const item = (body.output as Array<Record<string, unknown>>)[0]!;
    expect(item.call_id).not.toBe('call_9');
    const next = decodeResponsesRequest({
      model: 'm',
      input: [item, { type: 'function_call_output', call_id: item.call_id, output: 'ok' }],
    });
    expect(next.messages[0]!.content[0]).toMatchObject({
      id: 'call_9',
      providerMetadata: { gemini: { thoughtSignature: 'CiQBAA==' } },
    });
    expect(next.messages[1]!.content[0]).toMatchObject({ toolCallId: 'call_9' });
  });
});
