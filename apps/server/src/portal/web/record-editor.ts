import type Router from "@koa/router";
import { z } from "zod";
import type { AppDeps } from "../../app-deps.js";
import type { HcsContext, HcsState } from "../../http/state.js";
import { readForm } from "./forms.js";
import { ownedPractice } from "./owned-practice.js";
import { assertCan, requireSignedIn, type SignedIn } from "./portal-request.js";
import { seeOther } from "./responses.js";

/** Any string fields: each editor checks the form itself, so that a refusal keeps the person's answers. */
const RawFormSchema = z.record(z.string(), z.string());

export type FormValues = Record<string, string>;
export type Practice = { readonly npi: string; readonly name: string };
export type FormMessages = { error?: string; notice?: string };

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
  /** Answers the form page (`recorded` null: a new record). */
  page(
    ctx: HcsContext,
    signedIn: SignedIn,
    practice: Practice,
    recorded: R | null,
    values: FormValues,
    status: number,
    messages?: FormMessages,
  ): Promise<void>;
  /** Saves what the form says: the saved record's id, or null when the form was answered again (refused). */
  save(
    ctx: HcsContext,
    signedIn: SignedIn,
    raw: FormValues,
    practice: Practice,
    recorded: R | null,
  ): Promise<string | null>;
}

/**
 * Mounts an editor's four routes — the new form and its post, a record's form and its post — with the checks every
 * one makes in the same order: signed in, the form read with its CSRF token (posts), the `change_records`
 * permission, the practice owned by the person's account, the record of that practice; a save redirects to the
 * record's page, so a reload does not post again.
 */
export function mountRecordEditor<R>(router: Router<HcsState>, deps: AppDeps, editor: RecordEditor<R>): void {
  const base = `/portal/practices/:npi/${editor.segment}`;
  const opened = async (ctx: HcsContext, post: boolean) => {
    const signedIn = await requireSignedIn(ctx, deps);
    if (!signedIn) return null;
    const raw = post ? await readForm(ctx, signedIn.cookie, RawFormSchema) : null;
    assertCan(signedIn, "change_records");
    const practice = await ownedPractice(deps, signedIn, String(ctx.params.npi));
    const id = ctx.params.id;
    const recorded = id === undefined ? null : await editor.load(signedIn, practice.npi, id);
    return { signedIn, raw, practice, recorded };
  };
  const afterSave = async (ctx: HcsContext, o: NonNullable<Awaited<ReturnType<typeof opened>>>) => {
    const id = await editor.save(ctx, o.signedIn, o.raw ?? {}, o.practice, o.recorded);
    if (id !== null)
      seeOther(ctx, `/portal/practices/${o.practice.npi}/${editor.segment}/${encodeURIComponent(id)}?saved=1`);
  };

  router.get(`${base}/new`, async (ctx) => {
    const o = await opened(ctx as unknown as HcsContext, false);
    if (o) await editor.page(ctx as unknown as HcsContext, o.signedIn, o.practice, null, editor.blank(), 200);
  });
  router.post(`${base}/new`, async (ctx) => {
    const o = await opened(ctx as unknown as HcsContext, true);
    if (o) await afterSave(ctx as unknown as HcsContext, o);
  });
  router.get(`${base}/:id`, async (ctx) => {
    const o = await opened(ctx as unknown as HcsContext, false);
    if (!o?.recorded) return;
    const messages = ctx.query.saved === "1" ? { notice: editor.savedNotice } : {};
    await editor.page(
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
}
