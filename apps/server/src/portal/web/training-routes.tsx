import { checkRosterCsv } from "../../administrative/training.js";
import type { TrainingStatus } from "../../administrative/training-schemas.js";
import type { AppDeps } from "../../app-deps.js";
import { trainingRecordsOperation } from "../../catalogue/administrative/training.js";
import type { Routes } from "../../http/route-template.js";
import { TrainingRosterPage } from "../views/training-roster.js";
import { refusalReason } from "./form-refusal.js";
import { ownedPractice } from "./owned-practice.js";
import { invokeForPortal, isInputRefusal, portalErrorOf } from "./portal-operations.js";
import { assertCan, requireSignedIn, viewerOf } from "./portal-request.js";
import { sendPage } from "./responses.js";
import { readUploadForm } from "./upload-form.js";

/** A roster of the CSV's 10,000 rows is about 1 MiB; twice that leaves room for long names and completions. */
export const MAX_ROSTER_UPLOAD_MIB = 2;

/**
 * The training roster upload: a CSV file (multipart form) checked row by row first — any row problem is listed
 * with its line and nothing is stored — then stored by the API's own operation (recordTraining) through the
 * portal bridge, so the rate-limit count and the audit event are those of an API upload.
 */
export function mountTrainingRoutes(router: Routes, deps: AppDeps): void {
  router.get("/portal/practices/:npi/training/roster", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    assertCan(signedIn, "change_records");
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    sendPage(
      ctx,
      <TrainingRosterPage
        viewer={await viewerOf(deps, signedIn, practice.npi)}
        practiceName={practice.name}
        maxMib={MAX_ROSTER_UPLOAD_MIB}
        result={null}
      />,
    );
  });

  router.post("/portal/practices/:npi/training/roster", async (ctx) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return;
    const form = await readUploadForm(ctx, signedIn.cookie, MAX_ROSTER_UPLOAD_MIB * 1024 * 1024);
    assertCan(signedIn, "change_records");
    const practice = await ownedPractice(deps, signedIn, ctx.params.npi);
    const viewer = await viewerOf(deps, signedIn, practice.npi);
    const page = (result: Parameters<typeof TrainingRosterPage>[0]["result"], status: number, error?: string) =>
      sendPage(
        ctx,
        <TrainingRosterPage
          viewer={viewer}
          practiceName={practice.name}
          maxMib={MAX_ROSTER_UPLOAD_MIB}
          result={result}
          {...(error ? { error } : {})}
        />,
        status,
      );

    const csv = form.roster ?? "";
    if (csv.trim() === "") return page(null, 400, "Choose a CSV file with a header line and at least one row.");
    const checked = checkRosterCsv(csv);
    const counts = {
      rows: checked.rows,
      members: checked.records.members.length,
      completions: checked.records.completions.length,
    };
    if (checked.problems.length > 0) return page({ ...counts, problems: checked.problems, status: null }, 400);
    if (checked.rows === 0) return page(null, 400, "The file has a header line but no rows.");

    const result = await invokeForPortal(ctx, deps, signedIn, trainingRecordsOperation, {
      npi: practice.npi,
      csv,
    });
    if (!result.ok) {
      // A completion of someone not on the roster, or dated in the future: known only against the stored roster.
      if (isInputRefusal(result.error)) return page(null, 400, `Nothing was stored: ${refusalReason(result.error)}.`);
      throw portalErrorOf(ctx, result);
    }
    page({ ...counts, problems: [], status: result.output as TrainingStatus }, 201);
  });
}
