/** JSON Schema validation of request bodies (ajv, compiled once per schema) with errors that name the field. */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { GatewayError } from '../../errors';

// inlineRefs off: a `$ref`'d subschema is one function however often it is used, not a copy per use.
const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: false, inlineRefs: false });

/** `/messages/0/content` → `messages[0].content`. */
export function fieldPath(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path.length === 0 ? segment : `.${segment}`;
  }
  return path;
}

function describe(error: ErrorObject): { param: string; message: string } {
  const base = fieldPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const param = base ? `${base}.${String(params.missingProperty)}` : String(params.missingProperty);
      return { param, message: `${param}: is required` };
    }
    case 'enum':
      return { param: base, message: `${base}: must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}` };
    case 'const':
      return { param: base, message: `${base}: must be ${JSON.stringify(params.allowedValue)}` };
    case 'type':
      return { param: base, message: `${base || 'body'}: must be of type ${String(params.type).replace(/,/g, ' or ')}` };
    default:
      return { param: base, message: `${base || 'body'}: ${error.message ?? 'is invalid'}` };
  }
}

/** A compiled validator that throws a 400 `GatewayError` naming the first bad field. */
export type BodyValidator<T> = (body: unknown) => asserts body is T;

/**
 * A validator for a schema, compiled once, on its first use: a host that never receives a
 * protocol's requests never pays for compiling (and keeping) that protocol's validator.
 */
export function compileValidator<T>(schema: Record<string, unknown>): BodyValidator<T> {
  let validate: ValidateFunction | undefined;
  return (body: unknown): asserts body is T => {
    validate ??= ajv.compile(schema);
    if (validate(body)) return;
    const { param, message } = describe(validate.errors![0]!);
    throw new GatewayError('invalid_request', message, { param });
  };
}

/** Throws a 400 about one field. */
export function invalidField(param: string, message: string): never {
  throw new GatewayError('invalid_request', `${param}: ${message}`, { param });
}
