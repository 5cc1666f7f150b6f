import type { TestResponse } from "../lab/https-client.js";
import type { TestServer } from "./test-server.js";

/**
 * A browser without a browser, for portal tests over real HTTPS: keeps the cookies the portal sets, and posts forms
 * with the CSRF token of the page it last loaded (as a browser submitting that page's form would).
 */
export class PortalClient {
  private readonly cookies = new Map<string, string>();
  /** The last page loaded (GET or the page a POST answered with). */
  last: TestResponse | null = null;

  /**
   * `t`: the server to talk to (a test server, or anything with its `request`, such as the demo's server seen from
   * outside); `headers`: sent with every request (an X-Forwarded-For, as a trusted proxy would add it).
   */
  constructor(
    private readonly t: Pick<TestServer, "request">,
    private readonly headers: Record<string, string> = {},
  ) {}

  private remember(res: TestResponse): TestResponse {
    const set = res.headers["set-cookie"];
    for (const header of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = header.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return { ...this.headers };
    return { ...this.headers, Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async get(path: string): Promise<TestResponse> {
    const res = this.remember(await this.t.request(path, { headers: this.cookieHeader() }));
    if (res.status === 200 || res.status === 201) this.last = res;
    return res;
  }

  /** The CSRF token in the last page's forms. */
  csrf(): string {
    const m = /name="_csrf" value="([^"]+)"/.exec(this.last?.text ?? "");
    if (!m) throw new Error("the last page has no form with a CSRF token");
    return m[1]!;
  }

  /** Posts a form; `csrf: false` leaves the token out, a string sends that one instead. */
  async post(path: string, fields: Record<string, string>, csrf: boolean | string = true): Promise<TestResponse> {
    const form = new URLSearchParams(fields);
    if (csrf !== false) form.set("_csrf", csrf === true ? this.csrf() : csrf);
    const res = this.remember(
      await this.t.request(path, {
        method: "POST",
        headers: { ...this.cookieHeader(), "Content-Type": "application/x-www-form-urlencoded" },
        body: form.toString(),
      }),
    );
    if (res.status === 200 || res.status === 201) this.last = res;
    return res;
  }

  /**
   * Posts a multipart form (a file input) as a browser does: `files` maps a field to its file's name and content.
   * The CSRF token as in {@link post}.
   */
  async postMultipart(
    path: string,
    fields: Record<string, string>,
    files: Record<string, { name: string; content: string | Buffer }>,
    csrf: boolean | string = true,
  ): Promise<TestResponse> {
    const boundary = `----hcs-test-${Math.random().toString(16).slice(2)}`;
    const all = { ...fields, ...(csrf !== false ? { _csrf: csrf === true ? this.csrf() : csrf } : {}) };
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(all))
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    for (const [name, file] of Object.entries(files)) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.name}"\r\n` +
            "Content-Type: text/csv\r\n\r\n",
        ),
        Buffer.from(file.content),
        Buffer.from("\r\n"),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    const res = this.remember(
      await this.t.request(path, {
        method: "POST",
        headers: { ...this.cookieHeader(), "Content-Type": `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat(parts),
      }),
    );
    if (res.status === 200 || res.status === 201) this.last = res;
    return res;
  }
}
