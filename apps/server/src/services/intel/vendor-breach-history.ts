import type { BreachHistoryProvider } from "../../administrative/vendor-grades.js";
import type { Executor } from "../../store/hot-sql.js";
import { breachDataset, breachHistory } from "./breach-lookup.js";

/**
 * hipaa.vendor_risk's breach history from the imported HHS OCR reports. A vendor has no state on record, so reports
 * in every state are searched; only the vendor's own name (identical, or the same once legal suffixes, punctuation and
 * case are folded) counts — a d/b/a alias alone is too weak to charge a vendor with a breach. With no HHS import the
 * history is "not available", as before the data existed.
 */
export function hhsVendorBreachHistory(db: Executor): BreachHistoryProvider {
  return {
    async breachesOf(vendor) {
      const [dataset, matches] = await Promise.all([breachDataset(db), breachHistory(db, vendor.name, null)]);
      if (dataset.records === 0) return null;
      return {
        breaches: matches
          .filter((m) => m.basis !== "dba_name")
          .map((m) => ({ reported_on: m.record.submitted_on, individuals_affected: m.record.individuals_affected })),
        dataset_date: dataset.newest_submission ?? dataset.imported_at ?? "unknown",
      };
    },
  };
}
