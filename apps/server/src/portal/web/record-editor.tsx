import type { JSX } from "preact";
import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import type { Routes } from "../../http/route-template.js";
import type { HcsContext } from "../../http/state.js";
import type { Viewer } from "../views/layout.js";
import { readForm } from "./forms.js";
import { ownedPractice } from "./owned-practice.js";
import { assertCan, requireSignedIn, type SignedIn, viewerOf } from "./portal-request.js";
import { seeOther, sendPage } from "./responses.js";

/** Any string fields: each editor checks the form itself, so that a refusal keeps the person's answers. */
const RawFormSchema = z.record(z.string(), z.string());

export type FormValues = Record<string, string>;
export type Practice = { readonly npi: string; readonly name: string };
export type FormMessages = { error?: string; notice?: string };

/** What an editor's form page is drawn from (`recorded` null: a new record). */
export interface FormPageProps<R> extends FormMessages {
  readonly viewer: Viewer;
  readonly practiceName: string;
  readonly recorded: R | null;
  readonly values: FormValues;
}

/** One kind of practice record the portal adds and edits with a form (incidents, business associates). */
export interface RecordEditor<R> {
  /** The path segment under the practice: `/portal/practices/{npi}/<segment>/new` and `/<segment>/{id}`. */
  readonly segment: string;
  /** The practice's record `id`; a PortalError not_found for anything else (its existence does not leak). */
  load(signedIn: SignedIn, npi: string, id: string): Promise<R>;
  /** The form of a new record. */
  blank(): FormValues;
  valuesOf(recorded: R): FormValues;
  /** What the page says after a save (the redirect's `?saved=1`). */
  readonly savedNotice: string;
  /** The form page. */
  render(page: FormPageProps<R>): JSX.Element;
  /**
   * Saves what the form says: the saved record's id, or why the form or the operation refused it (the form is then
   * answered again, 400, with the person's answers and the reason).
   */
  save(
    ctx: HcsContext,
    signedIn: SignedIn,
    raw: FormValues,
    practice: Practice,
    recorded: R | null,
  ): Promise<{ readonly id: string } | { readonly refused: string }>;
}

/** Answers an editor's form page to a signed-in person (for the editor's routes, and routes of its own). */
export type FormPageSender<R> = (
  ctx: HcsContext,
  signedIn: SignedIn,
  practice: Practice,
  recorded: R | null,
  values: FormValues,
  status: number,
  messages?: FormMessages,
) => Promise<void>;

/**
 * Mounts an editor's four routes — the new form and its post, a record's form and its post — with the checks every
 * one makes in the same order: signed in, the form read with its CSRF token (posts), the `change_records`
 * permission, the practice owned by the person's account, the record of that practice; a save redirects to the
 * record's page, so a reload does not post again. Answers the function that sends the editor's form page.
 */
export function mountRecordEditor<R>(router: Routes, deps: AppDeps, editor: RecordEditor<R>): FormPageSender<R> {
  const base = `/portal/practices/:npi/${editor.segment}`;
  const page: FormPageSender<R> = async (ctx, signedIn, practice, recorded, values, status, messages = {}) =>
    sendPage(
      ctx,
      editor.render({
        viewer: await viewerOf(deps, signedIn, practice.npi),
        practiceName: practice.name,
        recorded,
        values,
        ...messages,
      }),
      status,
    );
  const opened = async (ctx: HcsContext, post: boolean) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return null;
    const raw = post ? await readForm(ctx, signedIn.cookie, RawFormSchema) : {};
    assertCan(signedIn, "change_records");
    const practice = await ownedPractice(deps, signedIn, String(ctx.params.npi));
    const id = ctx.params.id;
    const recorded = id === undefined ? null : await editor.load(signedIn, practice.npi, id);
    return { signedIn, raw, practice, recorded };
  };
  const afterSave = async (ctx: HcsContext, o: NonNullable<Awaited<ReturnType<typeof opened>>>) => {
    const saved = await editor.save(ctx, o.signedIn, o.raw, o.practice, o.recorded);
    if ("refused" in saved) await page(ctx, o.signedIn, o.practice, o.recorded, o.raw, 400, { error: saved.refused });
    else seeOther(ctx, `/portal/practices/${o.practice.npi}/${editor.segment}/${encodeURIComponent(saved.id)}?saved=1`);
  };

  router.get(`${base}/new`, async (ctx) => {
    const o = await opened(ctx as unknown as HcsContext, false);
    if (o) await page(ctx as unknown as HcsContext, o.signedIn, o.practice, null, editor.blank(), 200);
  });
  router.post(`${base}/new`, async (ctx) => {
    const o = await opened(ctx as unknown as HcsContext, true);
    if (o) await afterSave(ctx as unknown as HcsContext, o);
  });
  router.get(`${base}/:id`, async (ctx) => {
    const o = await opened(ctx as unknown as HcsContext, false);
    if (!o?.recorded) return;
    const messages = ctx.query.saved === "1" ? { notice: editor.savedNotice } : {};
    await page(
      ctx as unknown as HcsContext,
      o.signedIn,
      o.practice,
      o.recorded,
      editor.valuesOf(o.recorded),
      200,
      messages,
    );
  });
  router.post(`${base}/:id`, async (ctx) => {
    const o = await opened(ctx as unknown as HcsContext, true);
    if (o) await afterSave(ctx as unknown as HcsContext, o);
  });
  return page;
}
