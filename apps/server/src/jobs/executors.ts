import type { CategoryName, FindingParsed, JobErrorCode, ScanType, Source } from "@hcs/protocol";
import type { JobsTable } from "../store/schema.js";

/** What running a job produced: one subject's assessment, stored with the job's completion. */
export interface JobOutput {
  readonly source: Source;
  readonly subject: string;
  readonly categories: readonly CategoryName[];
  readonly findings: readonly FindingParsed[];
}

/** Runs one attempt of a job. Throws JobError for a known failure; anything else counts as transient. */
export type JobExecutor = (job: JobsTable, signal: AbortSignal) => Promise<JobOutput>;

/** One executor per scan type (explicit registry). */
export type JobExecutors = Readonly<Record<ScanType, JobExecutor>>;

/** A job failure with a code for the job's `error`; `retryable` says whether another attempt could succeed. */
export class JobError extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "JobError";
  }
}
