import { splitHeaderValues } from "./header-values.js";

/** One Content-Security-Policy: its directives by lower-case name, each with its source tokens. */
export type CspPolicy = ReadonlyMap<string, readonly string[]>;

const ASCII_WHITESPACE = /[\t\n\f\r ]+/;

/**
 * CSP3 §2.2.1 "parse a serialized CSP": directives split on ";", names lower-cased and limited to letters, digits
 * and "-", the first of a repeated directive kept, values split on ASCII whitespace.
 */
export function parseSerializedCsp(serialized: string): CspPolicy {
  const directives = new Map<string, readonly string[]>();
  for (const token of serialized.split(";")) {
    const [rawName = "", ...value] = token.split(ASCII_WHITESPACE).filter((t) => t !== "");
    const name = rawName.toLowerCase();
    if (!/^[a-z0-9-]+$/.test(name) || directives.has(name)) continue;
    directives.set(name, value);
  }
  return directives;
}

/**
 * CSP3 §2.2.2 "parse a response's Content Security Policies": one policy per comma-separated header value (several
 * headers arrive joined by commas); a value without any directive, such as a blank one, is no policy at all.
 */
export function parseCspHeader(value: string | undefined): CspPolicy[] {
  return (splitHeaderValues(value) ?? []).map(parseSerializedCsp).filter((policy) => policy.size > 0);
}

/**
 * True when a frame-ancestors source list lets any web page frame the document: a "*" host (alone, or with a
 * scheme or port) or an http:/https: scheme-source (CSP3 §6.7.2.5: a scheme-source matches every URL of the
 * scheme). 'none', 'self', named hosts, host wildcards like *.example.com and other schemes do not.
 */
export function frameAncestorsAllowsAnySite(sources: readonly string[]): boolean {
  return sources.some((raw) => {
    const source = raw.toLowerCase();
    if (/^(https?):$/.test(source)) return true;
    const host = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/:]+)(?::[0-9*]+)?(?:\/.*)?$/.exec(source)?.[1];
    return host === "*";
  });
}
