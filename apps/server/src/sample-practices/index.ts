// The sample practices' public surface, written out (no `export *`).

export { startZoneDnsServer, type ZoneDnsServer } from "./dns-server.js";
export { SamplePracticesError, type SamplePracticesErrorCode } from "./errors.js";
export { samplePracticesEnv } from "./server-env.js";
export { type RunningSite, type SitePage, type SiteSpec, startSite } from "./site-server.js";
export {
  PRACTICE_SPECS,
  type SamplePractices,
  type SamplePracticesOptions,
  startSamplePractices,
} from "./start.js";
export type { SamplePractice } from "./types.js";
export { answerQuery, type Zone, type ZoneAnswer, type ZoneRecord } from "./zone.js";
