/**
 * Puts an object's properties in dictionary mode (a hash table instead of a hidden class). Express gives every `req`
 * and `res` a hidden class of its own (`Object.setPrototypeOf` in `app.handle`), so each property added to them later
 * — by Express, by Node's `http` and stream code, by undici's and the gateway's listeners — makes yet another hidden
 * class with no transition cached: V8 copies the descriptor array and migrates the object every time
 * (`MigrateToMap`, `DescriptorArray::CopyFrom`). In dictionary mode an added property is a hash-table insert. Whether a
 * process's `req` and `res` ended up in dictionary mode used to depend on which requests it served first (a
 * megamorphic store turned them over); this makes it the same for every process (docs/performance.md, open
 * question 1). Deleting a property that is not the last one added is what makes V8 normalize an object.
 */
const FIRST = Symbol('rosetta.dictionary-mode.first');
const SECOND = Symbol('rosetta.dictionary-mode.second');

export function toDictionaryMode(object: object): void {
  const target = object as Record<symbol, unknown>;
  target[FIRST] = undefined;
  target[SECOND] = undefined;
  delete target[FIRST];
  delete target[SECOND];
}
