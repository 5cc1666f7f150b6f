import type { VNode } from "preact";
import { render } from "preact-render-to-string";
import type { HcsContext } from "../../http/state.js";

/** Answers a server-rendered page (preact escapes every text and attribute value). Pages are never cached. */
export function sendPage(ctx: HcsContext, page: VNode, status = 200): void {
  ctx.status = status;
  ctx.set("Content-Type", "text/html; charset=utf-8");
  ctx.set("Cache-Control", "no-store");
  ctx.body = `<!doctype html>${render(page)}`;
}

/** 303 See Other: after a form, the browser loads the next page with GET (no resubmission on reload). */
export function seeOther(ctx: HcsContext, location: string): void {
  ctx.status = 303;
  ctx.set("Cache-Control", "no-store");
  ctx.set("Location", location);
  ctx.body = "";
}
