/**
 * A mock Gemini Developer API on 127.0.0.1 that checks function declarations' schemas as Google does, answering a
 * schema it does not take with Google's 400 (`INVALID_ARGUMENT`, a `google.rpc.BadRequest` with one field violation
 * per problem, their messages joined by newlines in `error.message`), and anything else with a short text answer.
 *
 * - `parameters` (the OpenAPI `Schema` message): only the fields of Google's Schema reference (type, format, title,
 *   description, nullable, enum, maxItems, minItems, properties, required, minProperties, maxProperties, minLength,
 *   maxLength, pattern, example, anyOf, propertyOrdering, default, items, minimum, maximum). Any other name is
 *   refused as protobuf's JSON parser refuses it, "Invalid JSON payload received. Unknown name \"exclusiveMinimum\" at
 *   'tools[0].function_declarations[17].parameters.properties[2].value': Cannot find field." (the messages quoted in
 *   claude-code-router #187 and #489, llmgateway #1763, CLIProxyAPI #97); a list as `type`, "Proto field is not
 *   repeating, cannot start list." (CLIProxyAPI #43).
 * - `parametersJsonSchema` (a JSON value): the JSON Schema subset of Google's structured-output guide ($id, $defs,
 *   $ref, $anchor, type, format, title, description, enum, items, prefixItems, minItems, maxItems, minimum, maximum,
 *   anyOf, oneOf, properties, additionalProperties, required, propertyOrdering) and the Schema fields above. Whether
 *   Google refuses a keyword outside it here, or ignores it, is not documented: the mock refuses, in the same shape,
 *   so a gateway that sends one is caught.
 * - both: a `format` outside Google's documented values (float, double, int32, int64, enum, date-time) is refused
 *   (Firebase's Gemini docs: any other string format makes the request fail; the message is the mock's own).
 */
import { startMockServer } from './mock-server';

type Json = Record<string, unknown>;

/** The fields of Google's `Schema` message (the `parameters` form). */
const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** The JSON Schema keywords of Google's structured-output guide (the `parametersJsonSchema` form), beside those. */
const JSON_SCHEMA_KEYWORDS = new Set([
  ...SCHEMA_FIELDS,
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'prefixItems',
  'oneOf',
  'additionalProperties',
]);

const FORMATS = new Set(['float', 'double', 'int32', 'int64', 'enum', 'date-time']);

/** What the mock saw of one request. */
export interface RecordedStrictGeminiRequest {
  url: string;
  body: Json;
}

export interface MockGeminiStrict {
  /** The base URL, `http://127.0.0.1:<port>/v1beta`. */
  url: string;
  requests: RecordedStrictGeminiRequest[];
  close(): Promise<void>;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** protobuf's JSON names: `functionDeclarations` → `function_declarations`. */
function snake(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** The problems of one schema, each as [field path, message], for the form whose keywords are `allowed`. */
function violations(schema: Json, at: string, allowed: ReadonlySet<string>, proto: boolean): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (!allowed.has(keyword)) {
      found.push([at, `Invalid JSON payload received. Unknown name "${keyword}" at '${at}': Cannot find field.`]);
      continue;
    }
    if (keyword === 'type' && proto && Array.isArray(value))
      found.push([
        at,
        `Invalid JSON payload received. Unknown name "type" at '${at}': Proto field is not repeating, cannot start list.`,
      ]);
    if (keyword === 'format' && !FORMATS.has(String(value)))
      found.push([`${at}.format`, `Invalid value at '${at}.format': format "${String(value)}" is not supported.`]);
    if (keyword === 'properties' && isObject(value)) {
      Object.entries(value).forEach(([name, entry], index) => {
        const path = proto ? `${at}.properties[${index}].value` : `${at}.properties.${name}`;
        if (isObject(entry)) found.push(...violations(entry, path, allowed, proto));
      });
    }
    if (keyword === '$defs' && isObject(value))
      for (const [name, entry] of Object.entries(value))
        if (isObject(entry)) found.push(...violations(entry, `${at}.$defs.${name}`, allowed, proto));
    if ((keyword === 'items' || keyword === 'additionalProperties') && isObject(value))
      found.push(...violations(value, `${at}.${snake(keyword)}`, allowed, proto));
    if ((keyword === 'anyOf' || keyword === 'oneOf' || keyword === 'prefixItems') && Array.isArray(value))
      value.forEach((entry, index) => {
        if (isObject(entry)) found.push(...violations(entry, `${at}.${snake(keyword)}[${index}]`, allowed, proto));
      });
  }
  return found;
}

/** Every problem of the body's function declarations. */
function declarationViolations(body: Json): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  tools.forEach((tool: unknown, toolIndex) => {
    if (!isObject(tool) || !Array.isArray(tool.functionDeclarations)) return;
    tool.functionDeclarations.forEach((declaration: unknown, index) => {
      if (!isObject(declaration)) return;
      const at = `tools[${toolIndex}].function_declarations[${index}]`;
      if (isObject(declaration.parameters))
        found.push(...violations(declaration.parameters, `${at}.parameters`, SCHEMA_FIELDS, true));
      if (isObject(declaration.parametersJsonSchema))
        found.push(
          ...violations(declaration.parametersJsonSchema, `${at}.parameters_json_schema`, JSON_SCHEMA_KEYWORDS, false),
        );
    });
  });
  return found;
}

export async function startMockGeminiStrict(): Promise<MockGeminiStrict> {
  const requests: RecordedStrictGeminiRequest[] = [];
  const server = await startMockServer((body, request, response) => {
    requests.push({ url: request.url!, body });
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      response.end(JSON.stringify(payload));
    };
    const found = declarationViolations(body);
    if (found.length > 0)
      return send(400, {
        error: {
          code: 400,
          message: found.map(([, message]) => message).join('\n'),
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.BadRequest',
              fieldViolations: found.map(([field, description]) => ({ field, description })),
            },
          ],
        },
      });
    const answer = {
      candidates: [
        { content: { role: 'model', parts: [{ text: 'schemas accepted' }] }, finishReason: 'STOP', index: 0 },
      ],
      usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 2, totalTokenCount: 42 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'strict-1',
    };
    if (request.url!.includes(':streamGenerateContent')) {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      return response.end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
    }
    send(200, answer);
  });
  return { url: `${server.origin}/v1beta`, requests, close: () => server.close() };
}
