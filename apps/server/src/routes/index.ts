import { practiceStatusRoute } from "./group-a/practice.js";
import {
  listAgentsRoute,
  listDeployTokensRoute,
  revokeAgentRoute,
  revokeDeployTokenRoute,
} from "./group-b/enrolments.js";
import { freeKeyRoute } from "./group-b/free-keys.js";
import { gradeLookupRoute } from "./group-b/grade.js";
import { deployTokenRoute, registerAgentRoute, uploadResultsRoute } from "./group-b/network.js";
import { dispatchScanRoute, getJobRoute } from "./group-b/scans.js";
import { discoveryRoutes } from "./public/discovery.js";
import { operationsRoutes } from "./public/operations.js";
import type { RouteDef } from "./route.js";

/** Every HTTP route, in one literal list (the router and the OpenAPI document both read it). */
export const ROUTES: readonly RouteDef[] = [
  ...operationsRoutes,
  ...discoveryRoutes(() => ROUTES),
  freeKeyRoute,
  gradeLookupRoute,
  dispatchScanRoute,
  getJobRoute,
  deployTokenRoute,
  registerAgentRoute,
  uploadResultsRoute,
  listAgentsRoute,
  revokeAgentRoute,
  listDeployTokensRoute,
  revokeDeployTokenRoute,
  practiceStatusRoute,
];
