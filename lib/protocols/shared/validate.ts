/**
 * JSON Schema validation of request bodies with errors that name the field. The validators are generated ahead of
 * time from each protocol's schema.ts (scripts/generate-validators.cjs, ajv standalone code), so no schema compiler
 * is loaded or run by the gateway.
 */
import { GatewayError } from '../../errors';

/** The fields of an ajv error that the messages are made from. */
export interface ValidationError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A validate function as ajv's standalone code writes it: true when valid, else the errors are on `errors`. */
export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: ValidationError[] | null;
}

/** `/messages/0/content` → `messages[0].content`. */
export function fieldPath(pointer: string): string {
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path.length === 0 ? segment : `.${segment}`;
  }
  return path;
}

function describe(error: ValidationError): { param: string; message: string } {
  const base = fieldPath(error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case 'required': {
      const param = base ? `${base}.${String(params.missingProperty)}` : String(params.missingProperty);
      return { param, message: `${param}: is required` };
    }
    case 'enum':
      return {
        param: base,
        message: `${base}: must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`,
      };
    case 'const':
      return { param: base, message: `${base}: must be ${JSON.stringify(params.allowedValue)}` };
    case 'type':
      return {
        param: base,
        message: `${base || 'body'}: must be of type ${String(params.type).replace(/,/g, ' or ')}`,
      };
    default:
      return { param: base, message: `${base || 'body'}: ${error.message ?? 'is invalid'}` };
  }
}

/** A body validator that throws a 400 `GatewayError` naming the first bad field. */
export type BodyValidator<T> = (body: unknown) => asserts body is T;

/**
 * A `BodyValidator` around a generated validate function (a schema.validator.ts), loaded on its first use: a host
 * that never receives a protocol's requests never holds that protocol's validator code (Gemini's is ~200 KB built).
 */
export function bodyValidator<T>(load: () => GeneratedValidator): BodyValidator<T> {
  let validate: GeneratedValidator | undefined;
  return (body: unknown): asserts body is T => {
    validate ??= load();
    if (validate(body)) return;
    const { param, message } = describe(validate.errors![0]!);
    throw new GatewayError('invalid_request', message, { param });
  };
}

/** Throws a 400 about one field. */
export function invalidField(param: string, message: string): never {
  throw new GatewayError('invalid_request', `${param}: ${message}`, { param });
}
