import { type AgentView, type DeployTokenResponse, ONE_SHOT_AGENT_LIFETIME, type OneShotGroup } from "@hcs/protocol";
import { Command, CsrfField, Notice, PortalPage, RevokeForm, type Viewer } from "./layout.js";
import { fingerprintOf, installSteps } from "./scanner-install.js";

/** An ISO instant to the minute, as the page shows times ("2026-11-24 11:05"; UTC, said in the heading). */
const minuteOf = (at: string) => at.slice(0, 16).replace("T", " ");

/** Installing the internal scanner: a deploy token (shown once), the commands, and the registered agents. */
export function ScannerPage({
  viewer,
  practiceName,
  canManage,
  issued,
  agents,
  one_shot,
  lastScans,
  notice,
}: {
  viewer: Viewer;
  practiceName: string;
  canManage: boolean;
  issued: DeployTokenResponse | null;
  /** The installed scanners (not one-shot runs). */
  agents: readonly AgentView[];
  /** The one-shot runs, grouped by machine. */
  one_shot: readonly OneShotGroup[];
  /** When each agent last uploaded a scan, by agent id (absent: never). */
  lastScans: ReadonlyMap<string, string>;
  notice?: string;
}) {
  const npi = viewer.npi!;
  return (
    <PortalPage title={`Scanner · ${practiceName}`} viewer={viewer} active="scanner">
      {notice && <Notice kind="ok">{notice}</Notice>}
      <section class="card">
        <h2>Install the scanner on a clinic computer</h2>
        <p>
          The scanner runs inside the clinic network and reports findings (counts and locations, never patient data). A
          deploy token lets one computer register; it expires after 24 hours.
        </p>
        {issued ? (
          <>
            <Notice kind="info">Copy the token now: it is shown only once.</Notice>
            <h3>Deploy token</h3>
            <Command id="deploy-token" text={issued.deploy_token} />
            <p class="muted small">
              Valid until {issued.expires_at.slice(0, 16).replace("T", " ")} UTC for {issued.max_uses} registration
              {issued.max_uses === 1 ? "" : "s"}. The register step below saves it as <code>hcs-deploy-token.txt</code>.
            </p>
            {(["sh", "powershell"] as const).map((shell) => (
              <section class="install-steps" data-shell={shell}>
                <h3>
                  {shell === "sh"
                    ? "On Linux or macOS (Terminal)"
                    : "On Windows (PowerShell: right-click it and choose Run as administrator)"}
                </h3>
                <ol>
                  {installSteps(issued).map((step) => (
                    <li>
                      <p>{step.title}</p>
                      {step.id === "ca" && shell === "sh" && (
                        <p class="muted small">
                          This server's certificate comes from its own certificate authority, which npm does not know:
                          the command writes it from this page. Or download{" "}
                          <a
                            href={`${issued.server_url.replace(/\/+$/, "")}/downloads/hcs-ca.pem`}
                            download="hcs-ca.pem"
                          >
                            hcs-ca.pem
                          </a>{" "}
                          into the folder you run the commands in. Its SHA-256 fingerprint, which the deploy token pins
                          too, must read <code class="fingerprint">{fingerprintOf(issued.ca_sha256)}</code>.
                        </p>
                      )}
                      {step.id === "ca" && shell === "powershell" && (
                        <p class="muted small">
                          The second line prints the fingerprint without colons:{" "}
                          <code class="fingerprint">{issued.ca_sha256.toUpperCase()}</code>.
                        </p>
                      )}
                      {step.id === "install" && shell === "sh" && (
                        <p class="muted small">
                          If npm answers EACCES (its global folder belongs to root), run the install with sudo.
                        </p>
                      )}
                      {step.id === "scan" && (
                        <p class="muted small">
                          {shell === "sh" ? "As root (sudo), " : "As administrator, "}the scan can read everything it
                          checks; a check it could not read counts against the grade. To check other machines too, add{" "}
                          <code>--targets 10.20.0.0/24</code> with the clinic's subnet.
                        </p>
                      )}
                      <Command
                        id={shell === "sh" ? `cmd-${step.id}` : `cmd-${step.id}-powershell`}
                        text={step.commands[shell]}
                        shell={shell}
                      />
                    </li>
                  ))}
                </ol>
              </section>
            ))}
          </>
        ) : canManage ? (
          <form method="post" action={`/portal/practices/${npi}/scanner/deploy-token`} class="inline-form">
            <CsrfField token={viewer.csrf} />
            <label>
              Registrations
              <input name="max_uses" type="number" min={1} max={50} value="1" />
            </label>
            <button type="submit">Create deploy token</button>
          </form>
        ) : (
          <p class="muted">Ask an owner or manager to create a deploy token.</p>
        )}
      </section>
      <section class="card">
        <h2>Registered scanners</h2>
        {agents.length > 0 && <p class="muted small">Times are UTC. Last scan: when this server last received one.</p>}
        {agents.length === 0 ? (
          <p class="muted">No scanner has registered yet.</p>
        ) : (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Computer</th>
                <th scope="col">Platform</th>
                <th scope="col">Registered</th>
                <th scope="col">Last seen</th>
                <th scope="col">Last scan</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {agents.map((a) => (
                <tr>
                  <td>{a.hostname}</td>
                  <td>{a.platform}</td>
                  <td>{a.registered_at.slice(0, 10)}</td>
                  <td>{a.last_seen_at ? minuteOf(a.last_seen_at) : "never"}</td>
                  <td>{lastScans.has(a.agent_id) ? minuteOf(lastScans.get(a.agent_id)!) : "never"}</td>
                  <td>
                    {a.revoked_at ? (
                      <span class="pill pill-none">revoked</span>
                    ) : (
                      <span class="pill pill-full">active</span>
                    )}
                  </td>
                  <td>
                    {canManage && !a.revoked_at && (
                      <RevokeForm
                        action={`/portal/practices/${npi}/scanner/agents/${a.agent_id}/revoke`}
                        csrf={viewer.csrf}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card">
        <h2>One-shot runs</h2>
        <p class="muted small">
          <code>hcs-scanner one-shot</code> (for CI) registers a throw-away identity for one scan. Its runs are grouped
          by computer; each may upload for {ONE_SHOT_AGENT_LIFETIME.hours_after_last_upload} hour after its last upload
          ({ONE_SHOT_AGENT_LIFETIME.hours_before_first_upload} hours after it registered when it has not uploaded yet),
          then it expires and its uploads are refused.
        </p>
        {one_shot.length === 0 ? (
          <p class="muted">No one-shot run yet.</p>
        ) : (
          <table class="list" id="one-shot-runs">
            <thead>
              <tr>
                <th scope="col">Computer</th>
                <th scope="col">Platform</th>
                <th scope="col">Runs</th>
                <th scope="col">Active</th>
                <th scope="col">Last run</th>
                <th scope="col">Last upload</th>
                <th scope="col">Version</th>
              </tr>
            </thead>
            <tbody>
              {one_shot.map((g) => (
                <tr>
                  <td>
                    {g.hostname} <span class="pill pill-partial">one-shot</span>
                  </td>
                  <td>{g.platform}</td>
                  <td>{g.runs}</td>
                  <td>{g.active > 0 ? g.active : <span class="muted">none (expired)</span>}</td>
                  <td>{minuteOf(g.last_registered_at)}</td>
                  <td>{g.last_upload_at ? minuteOf(g.last_upload_at) : "never"}</td>
                  <td>{g.scanner_version}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </PortalPage>
  );
}
