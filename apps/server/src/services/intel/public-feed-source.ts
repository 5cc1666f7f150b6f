/**
 * A feed import's source as the server's answers show it (/readyz, hipaa.breach's `dataset`): a URL keeps its
 * scheme, host and path — never a user name, password, query or fragment, which can carry a credential — and a file
 * keeps its name only. Where on the server's disk an operator kept the file (`/home/op/feeds/breach_report.csv`) is
 * nobody else's business: paths name users, mounts and layouts an attacker would like to know. The stored source is
 * left whole; the operator's own `hcs-server data status` shows it.
 */
export function publicFeedSource(source: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    try {
      const url = new URL(source);
      return `${url.protocol}//${url.host}${url.pathname}`;
    } catch {
      return "(a URL)";
    }
  }
  // A POSIX or a Windows path (`C:\feeds\kev.json`): its last segment.
  return source.split(/[\\/]/).filter(Boolean).at(-1) ?? "";
}
