/** The items of a stored answer a later call may name by id (`item_reference`): its output items, then its input items. */
import type { StoredResponse } from './types';

type Item = Record<string, unknown>;

function withId(value: unknown): value is Item & { id: string } {
  return typeof value === 'object' && value !== null && typeof (value as Item).id === 'string';
}

/** The record's items that have an id: the answer's `response.output` first, then `inputItems`. */
export function recordItems(record: StoredResponse): Array<Item & { id: string }> {
  const output = record.response.output;
  return [...(Array.isArray(output) ? output : []), ...record.inputItems].filter(withId);
}

/** The ids a store indexes for a record (each once). */
export function recordItemIds(record: StoredResponse): string[] {
  return [...new Set(recordItems(record).map((item) => item.id))];
}

/** The record's item with this id, or undefined. */
export function recordItem(record: StoredResponse, itemId: string): Item | undefined {
  return recordItems(record).find((item) => item.id === itemId);
}
