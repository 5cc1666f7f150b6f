/** `ufw status` / `ufw status verbose`: active or inactive, or null when the output is not ufw's. */
export function parseUfwStatus(text: string): "active" | "inactive" | null {
  const m = /^Status:\s*(active|inactive)\b/m.exec(text);
  return m ? (m[1] as "active" | "inactive") : null;
}
