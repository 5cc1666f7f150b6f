/** One registry key as `reg query` prints it, with its values by name. */
export interface RegKey {
  readonly path: string;
  readonly values: ReadonlyMap<string, { readonly type: string; readonly data: string }>;
}

/**
 * `reg query <key> [/s]`: a line per key (`HKEY_…`), then one indented line per value, name, type and data
 * separated by four spaces (names and data may contain single spaces, so only that separator splits them).
 * The REG_* type names are never translated, which keeps this reader independent of the display language.
 */
export function parseRegQuery(text: string): RegKey[] {
  const keys: { path: string; values: Map<string, { type: string; data: string }> }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (/^HKEY_/.test(line)) {
      keys.push({ path: line, values: new Map() });
      continue;
    }
    const m = /^ {4}(.+?) {4}(REG_[A-Z_]+)(?: {4}(.*))?$/.exec(line);
    const current = keys[keys.length - 1];
    if (m && current) current.values.set(m[1]!, { type: m[2]!, data: m[3] ?? "" });
  }
  return keys;
}

/** A value's data as text, or undefined when the key does not have it. */
export function regString(key: RegKey, name: string): string | undefined {
  return key.values.get(name)?.data;
}

/** A REG_DWORD value (`0x1`) as a number, or undefined when absent or not a DWORD. */
export function regDword(key: RegKey, name: string): number | undefined {
  const value = key.values.get(name);
  if (value?.type !== "REG_DWORD" || !/^0x[0-9a-f]+$/i.test(value.data)) return undefined;
  return Number.parseInt(value.data.slice(2), 16);
}
