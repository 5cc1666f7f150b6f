import type { ExternalCheck } from "./check.js";
import { dkimCheck } from "./email/dkim-check.js";
import { dmarcCheck } from "./email/dmarc-check.js";
import { mtaStsCheck } from "./email/mta-sts-check.js";
import { mxCheck } from "./email/mx-check.js";
import { spfCheck } from "./email/spf-check.js";
import { tlsRptCheck } from "./email/tls-rpt-check.js";
import { formsCheck } from "./privacy/forms-check.js";
import { privacyNoticeCheck } from "./privacy/privacy-notice-check.js";
import { trackersCheck } from "./privacy/trackers-check.js";
import { certificateCheck } from "./site/certificate-check.js";
import { cookiesCheck } from "./site/cookies-check.js";
import { exposedServicesCheck } from "./site/exposed-services-check.js";
import { httpRedirectCheck } from "./site/http-redirect-check.js";
import { httpsCheck } from "./site/https-check.js";
import { securityHeadersCheck } from "./site/security-headers-check.js";
import { serverDisclosureCheck } from "./site/server-disclosure-check.js";
import { tlsCiphersCheck } from "./site/tls-ciphers-check.js";
import { tlsVersionsCheck } from "./site/tls-versions-check.js";

/** Every external check, in report order (an explicit list: adding a check is a visible change here). */
export const EXTERNAL_CHECKS: readonly ExternalCheck[] = [
  mxCheck,
  spfCheck,
  dmarcCheck,
  dkimCheck,
  mtaStsCheck,
  tlsRptCheck,
  httpsCheck,
  httpRedirectCheck,
  tlsVersionsCheck,
  tlsCiphersCheck,
  certificateCheck,
  securityHeadersCheck,
  cookiesCheck,
  serverDisclosureCheck,
  exposedServicesCheck,
  trackersCheck,
  privacyNoticeCheck,
  formsCheck,
];

/** Check ids are part of finding check_ids; a duplicate would merge two checks' findings. */
const ids = new Set<string>();
for (const check of EXTERNAL_CHECKS) {
  if (ids.has(check.id)) throw new Error(`duplicate external check id ${check.id}`);
  ids.add(check.id);
}
