import type { AppDeps } from "../../app-deps.js";
import type { Routes } from "../../http/route-template.js";
import { PrivacyPage } from "../views/privacy.js";
import { DEFAULT_IDLE_MINUTES } from "./portal-request.js";
import { sendPage } from "./responses.js";

/** The privacy notice, linked from every page's footer; public, so it can be read before signing in. */
export function mountPrivacyRoutes(router: Routes, deps: AppDeps): void {
  router.get("/portal/privacy", (ctx) => {
    sendPage(ctx, <PrivacyPage idleMinutes={deps.portal?.idleMinutes ?? DEFAULT_IDLE_MINUTES} />);
  });
}
