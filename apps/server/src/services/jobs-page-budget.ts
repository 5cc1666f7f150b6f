/**
 * Bytes of stored results one page carries at most: a page stops before the job that would exceed them (with a
 * next_cursor), but always shows one job, however large its result. A page of 100 jobs with results once made a
 * 66 MB answer that held the event loop for seconds (docs/api.md, "Jobs").
 */
export const JOBS_PAGE_RESULT_BYTES = 2 * 1024 * 1024;
