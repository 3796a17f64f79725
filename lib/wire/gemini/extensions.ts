/**
 * What a Gemini object carries under `extensions.gemini`: the shapes, and the helpers the codec (writing) and the
 * provider (reading) share.
 */
import type { Extensions } from '../../canonical';
import { isJsonObject, type JsonObject } from '../../json';
import { snakeCase } from './field-names';

/** The key of {@link Extensions} that Gemini objects use. */
export const GEMINI_EXTENSION_KEY = 'gemini';

/**
 * The extension of one Gemini wire object: what the codec does not model, and how the caller spelt
 * what it does, so that an encoder speaking Gemini rebuilds the object the caller sent. Every member
 * is absent when there is nothing to say (then there is no extension at all).
 */
export type GeminiExtension = {
  /**
   * The object's keys the codec does not model, as the caller spelt them (`safetySettings`, `videoMetadata`). Absent:
   * none.
   */
  fields?: JsonObject;
  /**
   * The modelled keys (camelCase names) that the caller spelt in snake_case (`generationConfig` sent as
   * `generation_config`). Absent: all camelCase.
   */
  snake?: string[];
  /**
   * The extensions of modelled child objects that are no canonical object of their own (`generationConfig`,
   * `thinkingConfig`, `functionCall`, `inlineData`, …), by camelCase key. Absent: none.
   */
  children?: { [key: string]: GeminiExtension };
};

/** The request body's extension (`GenerateRequest.extensions.gemini`). */
export type GeminiRequestExtension = GeminiExtension & {
  /**
   * The `tools` entries in the caller's order, each the extension of its non-function members
   * (`googleSearch`, `codeExecution`, `urlContext`, …), `functions` when it held function
   * declarations (each canonical tool names its entry). Absent: no tools or only one function entry.
   */
  tools?: GeminiToolEntry[];
};

/** One `tools[]` entry of a {@link GeminiRequestExtension}. */
export type GeminiToolEntry = GeminiExtension & {
  /** The entry held `functionDeclarations`. Absent: it did not. */
  functions?: true;
};

/** A function declaration's extension (`ToolDefinition.extensions.gemini`). */
export type GeminiToolExtension = GeminiExtension & {
  /** The index of the `tools[]` entry it was declared in. Absent: the first entry that declares functions. */
  entry?: number;
};

/**
 * The extension of the first message decoded from a content (`Message.extensions.gemini`); the `systemInstruction`'s on
 * the system message.
 */
export type GeminiMessageExtension = GeminiExtension & {
  /** The content had no `role` key (Gemini reads it as `user`). Absent: it had one. */
  roleOmitted?: true;
  /**
   * The content follows one of the same role and stays a content of its own. Absent: adjacent turns of one role are
   * merged.
   */
  separate?: true;
};

/** A part's extension (`ContentPart.extensions.gemini`). */
export type GeminiPartExtension = GeminiExtension & {
  /** A `fileData` part: its URI is sent as it is, never downloaded and inlined. Absent: an image URL may be inlined. */
  keepUri?: true;
  /** A `thought` part sent without a signature: replayed as sent. Absent: unsigned reasoning is not replayed. */
  thought?: true;
  /**
   * A part that held only a `thoughtSignature` (decoded as empty text): sent back without `text`. Absent: it had a
   * payload.
   */
  signatureOnly?: true;
};

/** A `thinkingConfig`'s extension (a child of `generationConfig`'s). */
export type GeminiThinkingExtension = GeminiExtension & {
  /**
   * The reasoning settings were given as this thinkingConfig: written back in the caller's terms, untranslated. Absent:
   * translated for the model's family.
   */
  literal?: true;
};

/**
 * A streamed chunk's unmodelled fields (`response-start` and `text-delta` extensions): the response's, and its first
 * candidate's.
 */
export type GeminiChunkExtension = {
  /** Response-level keys the canonical stream does not model (`promptFeedback`, …). Absent: none. */
  fields?: JsonObject;
  /**
   * The first candidate's keys the canonical stream does not model (`safetyRatings`, `groundingMetadata`, …). Absent:
   * none.
   */
  candidate?: JsonObject;
};

/**
 * The extension of a canonical tool-call stream part made from one piece of a call Gemini streamed in pieces
 * (`partialArgs`, `willContinue`): the `functionCall` part as it came, for a Gemini caller.
 */
export type GeminiStreamedCallExtension = {
  streamedCall: JsonObject;
};

/** The Gemini extension of a canonical object, typed as the caller of this function knows it to be. */
export function geminiExtension<
  T extends GeminiExtension | GeminiChunkExtension | GeminiStreamedCallExtension = GeminiExtension,
>(holder: { extensions?: Extensions } | undefined): T | undefined {
  return holder?.extensions?.[GEMINI_EXTENSION_KEY] as T | undefined;
}

/** `{gemini: extension}` to spread into a canonical object, or nothing when there is no extension. */
export function withGeminiExtension(
  extension: GeminiExtension | GeminiChunkExtension | GeminiStreamedCallExtension | undefined,
): {
  extensions?: Extensions;
} {
  return extension ? { extensions: { [GEMINI_EXTENSION_KEY]: extension } } : {};
}

/** The keys a codec models in one kind of wire object, under both spellings; built once per kind. */
export interface ModelledKeys {
  readonly names: ReadonlySet<string>;
  /** snake_case spelling → camelCase name, for the names whose spellings differ. */
  readonly camelOf: ReadonlyMap<string, string>;
}

/** The {@link ModelledKeys} of camelCase `names`. */
export function modelledKeys(names: readonly string[]): ModelledKeys {
  const all = new Set<string>();
  const camelOf = new Map<string, string>();
  for (const name of names) {
    all.add(name);
    const snake = snakeCase(name);
    if (snake !== name) {
      all.add(snake);
      camelOf.set(snake, name);
    }
  }
  return { names: all, camelOf };
}

/**
 * The extension of a wire object: its unmodelled keys and its modelled keys spelt in snake_case,
 * found in one pass over its keys; undefined when there is neither (the usual case: no allocation).
 */
export function extensionOf(object: JsonObject, modelled: ModelledKeys): GeminiExtension | undefined {
  let fields: JsonObject | undefined;
  let snake: string[] | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (!modelled.names.has(key)) {
      (fields ??= {})[key] = object[key];
      continue;
    }
    const camel = modelled.camelOf.get(key);
    if (camel !== undefined && object[camel] === undefined) (snake ??= []).push(camel);
  }
  if (!fields && !snake) return undefined;
  return { ...(fields ? { fields } : {}), ...(snake ? { snake } : {}) };
}

/** `extension` with `child` under `key` (both may be undefined); a new object, the input is not changed. */
export function withChild<T extends GeminiExtension>(
  extension: T | undefined,
  key: string,
  child: GeminiExtension | undefined,
): T | undefined {
  if (!child) return extension;
  return { ...extension, children: { ...extension?.children, [key]: child } } as T;
}

function hasContent(extension: GeminiExtension): boolean {
  return (
    extension.fields !== undefined ||
    (extension.children !== undefined && Object.values(extension.children).some(hasContent))
  );
}

/**
 * `encoded` (an object the encoder built, camelCase) as the caller spelt it, with what the codec did
 * not model: each child extension applied to its child (a child the encoder did not write is
 * created when its extension has fields to give it), the snake_case spellings restored, and the
 * unmodelled fields added (the encoder's own keys win). Changes `encoded` in place and returns it.
 */
export function applyGeminiExtension(encoded: JsonObject, extension: GeminiExtension | undefined): JsonObject {
  if (!extension) return encoded;
  if (extension.children) {
    for (const key in extension.children) {
      const child = extension.children[key]!;
      const value = encoded[key];
      if (isJsonObject(value)) applyGeminiExtension(value, child);
      else if (value === undefined && hasContent(child)) encoded[key] = applyGeminiExtension({}, child);
    }
  }
  if (extension.snake) {
    for (const name of extension.snake) {
      if (encoded[name] === undefined) continue;
      encoded[snakeCase(name)] = encoded[name];
      delete encoded[name];
    }
  }
  if (extension.fields) {
    for (const key in extension.fields) if (encoded[key] === undefined) encoded[key] = extension.fields[key];
  }
  return encoded;
}
