/**
 * The Gemini encoder puts function responses in the order of the calls they answer (lib/providers/gemini/call-order.ts),
 * in the places responses held in their turn: text beside them, and a response naming no earlier call, stay put.
 */
import type { Message, ToolCallPart, ToolResultPart } from '../../../lib/canonical';
import { encodeContents } from '../../../lib/providers/gemini/encode-contents';
import type { GeminiPart } from '../../../lib/providers/gemini/wire-types';

const call = (id: string, path: string, geminiId = false): ToolCallPart => ({
  type: 'tool-call',
  id,
  name: 'read_file',
  arguments: JSON.stringify({ path }),
  ...(geminiId ? { providerMetadata: { gemini: { functionCallId: id } } } : {}),
});
const result = (toolCallId: string, text: string, toolName?: string): Message => ({
  role: 'tool',
  content: [
    { type: 'tool-result', toolCallId, content: [{ type: 'text', text }], ...(toolName ? { toolName } : {}) },
  ] as ToolResultPart[],
});
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

/** Each part of the last content: a response as `<id or ->:<output>`, text as itself. */
function lastTurn(messages: Message[]): string[] {
  const parts = encodeContents(messages).contents.at(-1)!.parts;
  return parts.map((part: GeminiPart) =>
    part.functionResponse
      ? `${part.functionResponse.id ?? '-'}:${String(part.functionResponse.response.output)}`
      : String(part.text),
  );
}

it('sends the results of three calls, answered in another order, in the order of the calls', () => {
  const messages: Message[] = [
    user('read'),
    { role: 'assistant', content: [call('c1', 'a'), call('c2', 'b'), call('c3', 'c')] },
    result('c3', 'C'),
    result('c1', 'A'),
    result('c2', 'B'),
  ];
  expect(lastTurn(messages)).toEqual(['-:A', '-:B', '-:C']);
});

it('keeps a text part, and a result naming no earlier call, where they stood', () => {
  const messages: Message[] = [
    user('read'),
    { role: 'assistant', content: [call('c1', 'a'), call('c2', 'b')] },
    result('c2', 'B'),
    result('unknown', 'X', 'read_file'),
    result('c1', 'A'),
    user('and then?'),
  ];
  expect(lastTurn(messages)).toEqual(['-:A', '-:X', '-:B', 'and then?']);
});

it('sends the ids of calls Gemini minted with their responses, in call order', () => {
  const messages: Message[] = [
    user('read'),
    { role: 'assistant', content: [call('fc-a', 'a', true), call('fc-b', 'b', true)] },
    result('fc-b', 'B'),
    result('fc-a', 'A'),
  ];
  expect(lastTurn(messages)).toEqual(['fc-a:A', 'fc-b:B']);
});

it('leaves the responses of earlier turns in their own turns', () => {
  const messages: Message[] = [
    user('read'),
    { role: 'assistant', content: [call('c1', 'a')] },
    result('c1', 'A'),
    { role: 'assistant', content: [call('c2', 'b'), call('c3', 'c')] },
    result('c3', 'C'),
    result('c2', 'B'),
  ];
  const { contents } = encodeContents(messages);
  expect(contents.map((content) => content.parts.length)).toEqual([1, 1, 1, 2, 2]);
  expect(contents[2]!.parts[0]!.functionResponse!.response).toEqual({ output: 'A' });
  expect(lastTurn(messages)).toEqual(['-:B', '-:C']);
});

it('orders 200,000 results answered in reverse in one pass and one sort (no scan per result)', () => {
  const count = 200_000;
  const calls: ToolCallPart[] = [];
  const results: Message[] = [];
  for (let index = 0; index < count; index++) calls.push(call(`c${index}`, `f${index}`));
  for (let index = count - 1; index >= 0; index--) results.push(result(`c${index}`, `R${index}`));
  const started = performance.now();
  const outputs = lastTurn([user('read'), { role: 'assistant', content: calls }, ...results]);
  expect(performance.now() - started).toBeLessThan(15_000);
  expect(outputs).toHaveLength(count);
  expect(outputs.every((output, index) => output === `-:R${index}`)).toBe(true);
}, 30_000);
