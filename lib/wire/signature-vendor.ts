/** What a vendor whose signatures caller protocols carry is, as data (the list of them: `carried-signatures.ts`). */
/**
 * A vendor that mints a signature its own API must get back with the part it came on, which
 * callers of other protocols have no field for.
 */
export interface SignatureVendor {
  /** Its key in `ProviderMetadata` (the provider's name); also tags a carried thinking signature (`<name>:`). */
  name: string;
  /** The field of its `ProviderMetadata` entry that holds the signature. */
  metadataKey: string;
  /** Marks the signature inside a tool-call id: `__<idTag>sig`. Letters and digits only. */
  idTag: string;
  /**
   * Where an OpenAI-compatible client of this vendor echoes the signature on a tool call:
   * `extra_content[key][field]`. Default: none.
   */
  openAIExtraContent?: { key: string; field: string };
}
