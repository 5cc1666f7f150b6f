import {
  CategoryNameSchema,
  type DeployTokenResponse,
  FINDINGS_PAGE_DEFAULT,
  SeveritySchema,
  SourceSchema,
} from "@hcs/protocol";
import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import { revokeAgentOperation } from "../../catalogue/scanners/enrolments.js";
import { deployTokenOperation } from "../../catalogue/scanners/network.js";
import { isServiceError } from "../../errors.js";
import type { Routes } from "../../http/route-template.js";
import { groupAgents } from "../../services/agent-groups.js";
import { lastScanByAgent } from "../../services/agent-last-scans.js";
import { evaluateComplianceState, readPracticeEvidence } from "../../services/compliance-state.js";
import { listAgents } from "../../services/enrolled-agents.js";
import { findingsPage } from "../../services/findings-page.js";
import { gradeHistory } from "../../services/grade-history.js";
import { currentGradeStanding } from "../../services/grade-standing.js";
import { PortalError } from "../portal-errors.js";
import { can } from "../roles.js";
import { DashboardPage } from "../views/dashboard.js";
import { FindingsPage } from "../views/findings.js";
import { ScannerPage } from "../views/scanner.js";
import { readForm } from "./forms.js";
import { ownedPractice } from "./owned-practice.js";
import { invokeForPortal, outputOrThrow } from "./portal-operations.js";
import { assertCan, requireSignedIn, type SignedIn, viewerOf } from "./portal-request.js";
import { seeOther, sendPage } from "./responses.js";

const FindingsFilterSchema = z.object({
  severity: SeveritySchema.optional(),
  category: CategoryNameSchema.optional(),
  source: SourceSchema.optional(),
  host: z.string().trim().min(1).max(255).optional(),
  status: z.enum(["open", "resolved"]).default("open"),
  cursor: z.string().min(1).max(1024).optional(),
});

/** Empty query fields (a filter left at "any") are absent, not invalid. */
const present = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => typeof v === "string" && v !== ""));

/** The practice pages: dashboard, findings and scanner, over the services the API's operations use. */
export function mountPracticeRoutes(router: Routes, deps: AppDeps): void {
  router.get("/portal", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const viewer = await viewerOf(deps, signedIn);
    seeOther(ctx, viewer.practices[0] ? `/portal/practices/${viewer.practices[0].npi}` : "/portal/settings/api");
  });

  router.get("/portal/practices/:npi", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const accountId = signedIn.session.user.accountId;
    const standing = await currentGradeStanding(deps, practice.npi).catch((err: unknown) => {
      if (isServiceError(err) && err.code === "no_grade_yet") return null;
      throw err;
    });
    const [history, top, evidence] = await Promise.all([
      gradeHistory(deps, practice.npi, accountId),
      findingsPage(deps, { npi: practice.npi, accountId, status: "open", limit: 5 }),
      readPracticeEvidence(deps, practice.npi),
    ]);
    sendPage(
      ctx,
      <DashboardPage
        viewer={await viewerOf(deps, signedIn, practice.npi)}
        practiceName={practice.name}
        standing={standing}
        history={history}
        topFindings={top.findings}
        requirements={evaluateComplianceState(practice.npi, deps.now().toISOString(), evidence)}
      />,
    );
  });

  router.get("/portal/practices/:npi/findings", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const parsed = FindingsFilterSchema.safeParse(present(ctx.query));
    if (!parsed.success) throw new PortalError("invalid_input", parsed.error.issues[0]?.message ?? "Bad filter.");
    const f = parsed.data;
    const page = await findingsPage(deps, {
      npi: practice.npi,
      accountId: signedIn.session.user.accountId,
      status: f.status,
      limit: FINDINGS_PAGE_DEFAULT,
      ...(f.severity ? { severity: [f.severity] } : {}),
      ...(f.category ? { category: f.category } : {}),
      ...(f.source ? { source: f.source } : {}),
      ...(f.host ? { host: f.host } : {}),
      ...(f.cursor ? { cursor: f.cursor } : {}),
    });
    const next = page.next_cursor
      ? `?${new URLSearchParams({ ...present({ ...f, cursor: undefined }), cursor: page.next_cursor } as Record<string, string>)}`
      : null;
    sendPage(
      ctx,
      <FindingsPage
        viewer={await viewerOf(deps, signedIn, practice.npi)}
        practiceName={practice.name}
        filter={f}
        findings={page.findings}
        nextHref={next}
      />,
    );
  });

  const scannerPage = async (
    signedIn: SignedIn,
    npi: string,
    name: string,
    issued: Parameters<typeof ScannerPage>[0]["issued"],
    notice?: string,
  ) => {
    const [agents, lastScans] = await Promise.all([
      listAgents(deps, { by: "account", accountId: signedIn.session.user.accountId }, { npi }),
      lastScanByAgent(deps, npi),
    ]);
    return (
      <ScannerPage
        viewer={await viewerOf(deps, signedIn, npi)}
        practiceName={name}
        canManage={can(signedIn.session.user.role, "manage_scanners")}
        issued={issued}
        {...groupAgents(agents)}
        lastScans={lastScans}
        {...(notice ? { notice } : {})}
      />
    );
  };

  router.get("/portal/practices/:npi/scanner", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const notice =
      ctx.query.revoked === "1" ? "The scanner was revoked: its uploads are refused from now on." : undefined;
    sendPage(ctx, await scannerPage(signedIn, practice.npi, practice.name, null, notice));
  });

  router.post("/portal/practices/:npi/scanner/deploy-token", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const form = await readForm(
      ctx,
      signedIn.cookie,
      z.object({ max_uses: z.coerce.number({ error: "Registrations: a number" }).int().min(1).max(50).default(1) }),
    );
    assertCan(signedIn, "manage_scanners");
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    // The API's operation through the one pipeline: counted, audited as createDeployToken (transport portal).
    const result = await invokeForPortal(
      ctx,
      deps,
      signedIn,
      deployTokenOperation,
      { npi: practice.npi, max_uses: form.max_uses },
      "manage_scanners",
    );
    const issued = outputOrThrow(ctx, result) as DeployTokenResponse;
    sendPage(ctx, await scannerPage(signedIn, practice.npi, practice.name, issued), 201);
  });

  router.post("/portal/practices/:npi/scanner/agents/:agent/revoke", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    await readForm(ctx, signedIn.cookie, z.object({}));
    assertCan(signedIn, "manage_scanners");
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const agents = await listAgents(
      deps,
      { by: "account", accountId: signedIn.session.user.accountId },
      { npi: practice.npi },
    );
    const agent = agents.find((a) => a.agent_id === ctx.params.agent);
    if (!agent) throw new PortalError("not_found", "There is no such scanner for this practice.");
    outputOrThrow(
      ctx,
      await invokeForPortal(ctx, deps, signedIn, revokeAgentOperation, { agent_id: agent.agent_id }, "manage_scanners"),
    );
    seeOther(ctx, `/portal/practices/${practice.npi}/scanner?revoked=1`);
  });
}
