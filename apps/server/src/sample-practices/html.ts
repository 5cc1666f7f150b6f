export interface PageContent {
  readonly practice: string;
  readonly title: string;
  readonly heading: string;
  readonly body: string;
  /** Snippets for <head> (trackers go here, as install guides say). */
  readonly head?: string;
  /** Navigation links: [href, text]. */
  readonly nav: readonly (readonly [string, string])[];
  /** Footer links: [href, text] (where practices put the privacy notice). */
  readonly footer: readonly (readonly [string, string])[];
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A small practice web page in the shape of a typical clinic site: header navigation, main content, footer. */
export function practicePage(content: PageContent): string {
  const links = (items: PageContent["nav"]) =>
    items.map(([href, text]) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`).join("\n        ");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(content.title)} | ${escapeHtml(content.practice)}</title>
    <link rel="stylesheet" href="/assets/site.css">
    ${content.head ?? ""}
  </head>
  <body>
    <header>
      <a class="brand" href="/">${escapeHtml(content.practice)}</a>
      <nav>
        ${links(content.nav)}
      </nav>
    </header>
    <main>
      <h1>${escapeHtml(content.heading)}</h1>
      ${content.body}
    </main>
    <footer>
      <p>&copy; ${escapeHtml(content.practice)}</p>
      ${links(content.footer)}
    </footer>
  </body>
</html>`;
}
