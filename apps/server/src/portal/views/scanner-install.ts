import type { DeployTokenResponse } from "@hcs/protocol";

/** The shells the page gives commands for: a POSIX shell (Linux and macOS Terminal) and Windows PowerShell. */
export type InstallShell = "sh" | "powershell";

/** One step of installing the scanner: what it does, and the commands for each shell (each pasted as it is). */
export interface InstallStep {
  readonly id: string;
  readonly title: string;
  readonly commands: Readonly<Record<InstallShell, string>>;
}

/** A SHA-256 in hex as certificate tools print a fingerprint: upper case, a colon between bytes. */
export const fingerprintOf = (sha256Hex: string) => sha256Hex.toUpperCase().replace(/(..)(?!$)/g, "$1:");

/** A string as a single-quoted literal of both shells (a quote inside is doubled in PowerShell, closed in sh). */
const quoted = (text: string, shell: InstallShell) =>
  shell === "sh" ? `'${text.replace(/'/g, `'\\''`)}'` : `'${text.replace(/'/g, "''")}'`;

/**
 * The commands of the portal's "Install the scanner" steps, built from a deploy-token answer (pure): each can be
 * pasted as it stands into a clinic computer's terminal — no file to fetch by hand, no placeholder to fill in —
 * and `e2e/portal-scanner-install.e2e.test.ts` runs the POSIX ones from the rendered page against a real server.
 *
 * 1. the CA certificate (when npm fetches the package from this server): written from the page itself, so no
 *    download has to trust the server before its CA is known; its fingerprint checked against the token's pin;
 * 2. npm installs the package from this server trusting that CA (`--cafile`), or from the npm registry;
 * 3. the token saved to a file and the scanner registered with it;
 * 4. a scan of this computer. On Linux and macOS both run as root (sudo), as the scan must to read everything
 *    (apps/scanner-cli/README.md: a check a run lacks the privileges for counts against the grade).
 */
export function installSteps(issued: DeployTokenResponse): InstallStep[] {
  const steps: InstallStep[] = [];
  const caPem = issued.install.ca_pem?.trimEnd();
  if (caPem && issued.install.package) {
    steps.push({
      id: "ca",
      title: "Save this server's certificate authority as hcs-ca.pem, and check its fingerprint",
      commands: {
        sh: `cat > hcs-ca.pem <<'EOF'\n${caPem}\nEOF\nopenssl x509 -in hcs-ca.pem -noout -fingerprint -sha256`,
        powershell: [
          `@'\n${caPem}\n'@ | Set-Content -Path hcs-ca.pem -Encoding ascii`,
          `(New-Object System.Security.Cryptography.X509Certificates.X509Certificate2 (Resolve-Path hcs-ca.pem)).GetCertHashString('SHA256')`,
        ].join("\n"),
      },
    });
  }
  steps.push({
    id: "install",
    title: "Install the scanner (Node.js 20.19 or newer, with npm)",
    commands: {
      sh: `${issued.install.npm}\nhcs-scanner --version`,
      powershell: `${issued.install.npm}\nhcs-scanner --version`,
    },
  });
  steps.push({
    id: "register",
    title: "Save the deploy token and register this computer",
    commands: {
      sh: `printf '%s\\n' ${quoted(issued.deploy_token, "sh")} > hcs-deploy-token.txt\nsudo hcs-scanner register --key-file hcs-deploy-token.txt`,
      powershell: `Set-Content -Path hcs-deploy-token.txt -Value ${quoted(issued.deploy_token, "powershell")}\nhcs-scanner register --key-file hcs-deploy-token.txt`,
    },
  });
  steps.push({
    id: "scan",
    title: "Scan this computer",
    commands: { sh: "sudo hcs-scanner scan", powershell: "hcs-scanner scan" },
  });
  return steps;
}
