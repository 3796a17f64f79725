/**
 * A stored response's input items: the call's `input` as OpenAI lists it (each item with an `id`), and a page of them
 * for `GET /v1/responses/{id}/input_items`.
 */
import { GatewayError } from '../../errors';
import { isJsonObject, type JsonObject } from '../../json';

/** The id prefix of an item listed without one. */
function prefixOf(type: string): string {
  if (type === 'message') return 'msg';
  if (type === 'function_call_output' || type === 'custom_tool_call_output') return 'fco';
  return 'item';
}

/** A message's `content` as parts: a string becomes one `input_text` (or, from the assistant, `output_text`). */
function contentParts(content: unknown, role: unknown): unknown {
  if (typeof content !== 'string') return content;
  return [
    role === 'assistant'
      ? { type: 'output_text', text: content, annotations: [] }
      : { type: 'input_text', text: content },
  ];
}

/** The call's own input items, as listed: a string input is one user message; every item has a `type` and an `id`. */
export function ownInputItems(input: unknown, stem: string): JsonObject[] {
  if (typeof input === 'string')
    return [
      {
        type: 'message',
        id: `msg_${stem}_in0`,
        status: 'completed',
        role: 'user',
        content: [{ type: 'input_text', text: input }],
      },
    ];
  if (!Array.isArray(input)) return [];
  return input.filter(isJsonObject).map((raw, index) => {
    const type = typeof raw.type === 'string' ? raw.type : 'message';
    const item: JsonObject = {
      ...raw,
      type,
      id: typeof raw.id === 'string' && raw.id.length > 0 ? raw.id : `${prefixOf(type)}_${stem}_in${index}`,
    };
    if (type === 'message') {
      item.status ??= 'completed';
      item.content = contentParts(raw.content, raw.role) as JsonObject['content'];
    }
    return item;
  });
}

function badQuery(param: string, message: string): never {
  throw new GatewayError('invalid_request', `Invalid '${param}': ${message}`, { param });
}

/**
 * The page `query` asks for (`limit` 1–100, default 20; `order` `asc` or `desc`, default `desc`; `after` an item id):
 * an OpenAI list object.
 */
export function inputItemsPage(items: readonly JsonObject[], query: URLSearchParams): JsonObject {
  const limitText = query.get('limit');
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    badQuery('limit', `must be an integer from 1 to 100, not '${limitText}'.`);
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') badQuery('order', `must be 'asc' or 'desc', not '${order}'.`);
  const ordered = order === 'asc' ? items : [...items].reverse();
  const after = query.get('after');
  let start = 0;
  if (after !== null) {
    const position = ordered.findIndex((item) => item.id === after);
    if (position < 0) badQuery('after', `no input item of this response has the id '${after}'.`);
    start = position + 1;
  }
  const data = ordered.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: (data[0]?.id as string | undefined) ?? null,
    last_id: (data[data.length - 1]?.id as string | undefined) ?? null,
    has_more: start + limit < ordered.length,
  };
}
