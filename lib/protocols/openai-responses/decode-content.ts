/** Responses message content parts (input_text, input_image, input_file, output_text, refusal) → canonical parts. */
import type { ContentPart, FilePart, ImagePart, MediaSource, TextPart } from '../../canonical';
import { sourceFromUrl } from '../../wire/media';
import { invalidField } from '../shared/validate';
import type { RawPart } from './schema';
import { withUnmodelled } from './unmodelled';

/** An output_text's `annotations` and `logprobs` are not modelled: they ride in the part's extension. */
const TEXT_FIELDS: ReadonlySet<string> = new Set(['type', 'text']);
const REFUSAL_FIELDS: ReadonlySet<string> = new Set(['type', 'refusal']);
const IMAGE_FIELDS: ReadonlySet<string> = new Set(['type', 'image_url', 'detail', 'file_id']);
const FILE_FIELDS: ReadonlySet<string> = new Set(['type', 'file_data', 'file_url', 'file_id', 'filename']);

function text(raw: RawPart, field: 'text' | 'refusal', at: string): TextPart {
  const value = raw[field];
  if (typeof value !== 'string') invalidField(`${at}.${field}`, 'must be a string');
  const extension =
    field === 'text' ? withUnmodelled(raw, TEXT_FIELDS) : withUnmodelled(raw, REFUSAL_FIELDS, { type: 'refusal' });
  return { type: 'text', text: value, ...extension };
}

function noFileIds(raw: RawPart, at: string): void {
  if (raw.file_id !== undefined && raw.file_id !== null) {
    invalidField(
      `${at}.file_id`,
      'uploaded file ids are not supported by this gateway: send the content inline (a data URL) or by URL',
    );
  }
}

/** An `input_image`: a URL or a data URL; `detail` kept. */
export function decodeImage(raw: RawPart, at: string): ImagePart {
  noFileIds(raw, at);
  if (typeof raw.image_url !== 'string') invalidField(`${at}.image_url`, 'is required (a URL or a base64 data URL)');
  const source = sourceFromUrl(raw.image_url);
  if (!source) invalidField(`${at}.image_url`, 'is not a valid URL or base64 data URL');
  const detail = typeof raw.detail === 'string' ? { detail: raw.detail } : {};
  return { type: 'image', source, ...detail, ...withUnmodelled(raw, IMAGE_FIELDS) };
}

/** An `input_file`: inline (`file_data`, a data URL or bare base64 of a PDF) or by `file_url`. */
export function decodeFile(raw: RawPart, at: string): FilePart {
  noFileIds(raw, at);
  let source: MediaSource | undefined;
  if (typeof raw.file_data === 'string') {
    const parsed = raw.file_data.startsWith('data:') ? sourceFromUrl(raw.file_data) : undefined;
    if (raw.file_data.startsWith('data:') && !parsed) invalidField(`${at}.file_data`, 'is not a valid base64 data URL');
    source = parsed ?? { kind: 'base64', mediaType: 'application/pdf', data: raw.file_data };
  } else if (typeof raw.file_url === 'string') {
    source = sourceFromUrl(raw.file_url);
    if (!source) invalidField(`${at}.file_url`, 'is not a valid URL');
  } else {
    invalidField(`${at}.file_data`, 'is required (or file_url)');
  }
  const filename = typeof raw.filename === 'string' ? { filename: raw.filename } : {};
  return { type: 'file', source, ...filename, ...withUnmodelled(raw, FILE_FIELDS) };
}

/** One part of a message item's content. */
export function decodePart(raw: RawPart, at: string): ContentPart {
  switch (raw.type) {
    case 'input_text':
    case 'output_text':
      return text(raw, 'text', at);
    case 'refusal':
      return text(raw, 'refusal', at);
    case 'input_image':
      return decodeImage(raw, at);
    case 'input_file':
      return decodeFile(raw, at);
    case 'input_audio':
      return invalidField(`${at}.type`, "'input_audio' is not supported by this gateway");
    default:
      return invalidField(`${at}.type`, `'${raw.type}' is not a known content part type`);
  }
}

/** A message's content: a string, or an array of parts. */
export function decodeContent(content: unknown, at: string): ContentPart[] {
  if (typeof content === 'string') return content.length > 0 ? [{ type: 'text', text: content }] : [];
  if (!Array.isArray(content)) return invalidField(at, 'is required (a string or an array of parts)');
  return content.map((part: RawPart, index) => decodePart(part, `${at}[${index}]`));
}
