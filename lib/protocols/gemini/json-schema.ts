/**
 * Gemini's OpenAPI-subset `Schema` (`type: "OBJECT"`, `nullable`) → the plain JSON Schema the canonical types carry.
 */

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function jsonType(type: unknown, nullable: boolean): unknown {
  const types = (Array.isArray(type) ? type : [type]).map((name) =>
    typeof name === 'string' ? name.toLowerCase() : name,
  );
  if (nullable && !types.includes('null')) types.push('null');
  return types.length === 1 ? types[0] : types;
}

function mapValues(schemas: Schema): Schema {
  const mapped: Schema = {};
  for (const [name, schema] of Object.entries(schemas)) mapped[name] = isSchema(schema) ? toJsonSchema(schema) : schema;
  return mapped;
}

/**
 * Lowercases `type` names, turns `nullable: true` into a `null` type, and recurses into `properties`,
 * `items`, `anyOf` and `additionalProperties`. Property names and every other keyword are left as sent.
 */
export function toJsonSchema(schema: Schema): Schema {
  const nullable = schema.nullable === true;
  const converted: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'nullable') continue;
    if (keyword === 'type') converted.type = jsonType(value, nullable);
    else if (keyword === 'properties' && isSchema(value)) converted.properties = mapValues(value);
    else if ((keyword === 'items' || keyword === 'additionalProperties') && isSchema(value))
      converted[keyword] = toJsonSchema(value);
    else if (keyword === 'anyOf' && Array.isArray(value))
      converted.anyOf = value.map((item: unknown) => (isSchema(item) ? toJsonSchema(item) : item));
    else converted[keyword] = value;
  }
  if (nullable && converted.type === undefined && Array.isArray(converted.anyOf))
    converted.anyOf = [...converted.anyOf, { type: 'null' }];
  if (nullable && Array.isArray(converted.enum) && !converted.enum.includes(null))
    converted.enum = [...converted.enum, null];
  return converted;
}
