import { Parser } from "htmlparser2";

export interface PageLink {
  /** Absolute http(s) URL, fragment removed. */
  readonly url: string;
  /** The anchor's visible text (collapsed whitespace), or its title/aria-label. */
  readonly text: string;
}

export interface PageResource {
  readonly url: string;
  readonly element: "script" | "img" | "iframe" | "link";
}

export interface FormField {
  readonly name: string;
  readonly type: string;
}

export interface PageForm {
  /** Absolute URL the form submits to (the page itself when action is empty). */
  readonly action: string;
  readonly method: "get" | "post";
  readonly fields: readonly FormField[];
}

/** What the privacy checks need from one HTML page. */
export interface PageAnalysis {
  readonly title: string;
  readonly headings: string;
  readonly links: readonly PageLink[];
  readonly resources: readonly PageResource[];
  /** Inline script bodies (capped), where tag snippets build their tracker URLs. */
  readonly inlineScripts: readonly string[];
  readonly forms: readonly PageForm[];
  readonly hasPasswordField: boolean;
}

const MAX_INLINE_SCRIPT_CHARS = 200_000;
const MAX_LINKS = 500;

function absolute(href: string | undefined, base: URL): URL | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** Parses an HTML page (htmlparser2, tolerant of broken markup) into links, resources, forms and inline scripts. */
export function analyzePage(pageUrl: string, html: string): PageAnalysis {
  let base = new URL(pageUrl);
  const links: PageLink[] = [];
  const resources: PageResource[] = [];
  const inlineScripts: string[] = [];
  const forms: { action: string; method: "get" | "post"; fields: FormField[] }[] = [];
  let title = "";
  let headings = "";
  let hasPasswordField = false;
  let inlineBudget = MAX_INLINE_SCRIPT_CHARS;

  // Text collectors for the element being read; a stack is not needed because none of them nest in valid HTML.
  let anchor: { url: string; text: string } | null = null;
  let capture: "title" | "h1" | "script" | null = null;
  let script = "";
  let form: (typeof forms)[number] | null = null;

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        switch (name) {
          case "base": {
            const href = absolute(attrs.href, base);
            if (href) base = href;
            break;
          }
          case "a":
          case "area": {
            const url = absolute(attrs.href, base);
            if (url && links.length < MAX_LINKS) {
              url.hash = "";
              anchor = { url: url.href, text: attrs.title ?? attrs["aria-label"] ?? "" };
              if (name === "area") {
                links.push(anchor);
                anchor = null;
              }
            }
            break;
          }
          case "script": {
            const src = absolute(attrs.src, base);
            if (src) resources.push({ url: src.href, element: "script" });
            else {
              capture = "script";
              script = "";
            }
            break;
          }
          case "img":
          case "iframe": {
            const src = absolute(attrs.src, base);
            if (src) resources.push({ url: src.href, element: name });
            break;
          }
          case "link": {
            // Preloaded or prefetched scripts load as surely as script tags do.
            const rel = (attrs.rel ?? "").toLowerCase();
            const href = absolute(attrs.href, base);
            if (href && /preload|prefetch|modulepreload/.test(rel) && (attrs.as ?? "script") === "script") {
              resources.push({ url: href.href, element: "link" });
            }
            break;
          }
          case "title":
          case "h1":
            capture = name;
            break;
          case "form": {
            const action = absolute(attrs.action || undefined, base) ?? new URL(base.href);
            form = {
              action: action.href,
              method: (attrs.method ?? "get").toLowerCase() === "post" ? "post" : "get",
              fields: [],
            };
            forms.push(form);
            break;
          }
          case "input":
          case "select":
          case "textarea": {
            const type = name === "input" ? (attrs.type ?? "text").toLowerCase() : name;
            if (type === "password") hasPasswordField = true;
            if (form && !["hidden", "submit", "button", "reset", "image"].includes(type)) {
              form.fields.push({ name: attrs.name ?? attrs.id ?? "", type });
            }
            break;
          }
        }
      },
      ontext(text) {
        if (anchor) anchor.text += text;
        if (capture === "title") title += text;
        else if (capture === "h1") headings += `${text}`;
        else if (capture === "script") script += text;
      },
      onclosetag(name) {
        if (name === "a" && anchor) {
          links.push({ url: anchor.url, text: anchor.text.replace(/\s+/g, " ").trim() });
          anchor = null;
        } else if (name === "form") {
          form = null;
        } else if (name === "script" && capture === "script") {
          if (inlineBudget > 0 && script.trim().length > 0) {
            inlineScripts.push(script.slice(0, inlineBudget));
            inlineBudget -= script.length;
          }
          capture = null;
        } else if (name === capture) {
          if (name === "h1") headings += " ";
          capture = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return {
    title: title.replace(/\s+/g, " ").trim(),
    headings: headings.replace(/\s+/g, " ").trim(),
    links,
    resources,
    inlineScripts,
    forms,
    hasPasswordField,
  };
}
