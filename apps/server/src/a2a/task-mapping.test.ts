import { ListTasksResponse, SendMessageResponse, Task } from "@a2a-js/sdk";
import { type Job, type JobResult, NpiSchema } from "@hcs/protocol";
import { describe, expect, it } from "vitest";
import { gradeDeclaration } from "../catalogue/grades/grade.declaration.js";
import { summarizeOutput } from "../operations/summaries.js";
import {
  contextIdOfJob,
  jobListStateOf,
  listTasksResponse,
  skillResultMessage,
  taskOfJob,
  taskStateOfJob,
} from "./task-mapping.js";

const JOB_ID = "0b8f1c2e-5d7a-4e3b-9c1d-2a3b4c5d6e7f";
const base: Job = {
  job_id: JOB_ID,
  status: "accepted",
  scan_type: "full",
  npi: NpiSchema.parse("1234567893"),
  poll_url: `/v1/a2a/jobs/${JOB_ID}`,
  callback_url: null,
  attempts: 0,
  max_attempts: 3,
  created_at: "2026-11-22T01:00:00.000Z",
  started_at: null,
  completed_at: null,
};
const result = { npi: "1234567893", grade: "B", compliance_score: 84, findings: [] } as unknown as JobResult;
const running: Job = { ...base, status: "running", attempts: 1, started_at: "2026-11-22T01:00:01.000Z" };
const completed: Job = { ...running, status: "completed", completed_at: "2026-11-22T01:00:09.000Z", result };
const failed: Job = {
  ...running,
  status: "failed",
  attempts: 3,
  completed_at: "2026-11-22T01:03:00.000Z",
  error: { code: "target_unreachable", message: "dns: no answer for queue.example" },
};
const cancelled: Job = {
  ...base,
  status: "failed",
  completed_at: "2026-11-22T01:00:02.000Z",
  error: { code: "cancelled", message: "the client cancelled the job before it ran" },
};

/** The task as @a2a-js/sdk reads and writes it: nothing unknown, nothing mistyped. */
const roundTrips = (task: unknown) => expect(Task.toJSON(Task.fromJSON(task))).toEqual(task);

describe("a job as an A2A task", () => {
  it("maps states: accepted → SUBMITTED, running → WORKING, completed → COMPLETED, failed → FAILED, cancelled → CANCELED", () => {
    expect([base, running, completed, failed, cancelled].map(taskStateOfJob)).toEqual([
      "TASK_STATE_SUBMITTED",
      "TASK_STATE_WORKING",
      "TASK_STATE_COMPLETED",
      "TASK_STATE_FAILED",
      "TASK_STATE_CANCELED",
    ]);
    // Waiting for another attempt after a failed one: submitted again, and the status says why.
    const retrying: Job = {
      ...running,
      status: "accepted",
      error: { code: "scan_cancelled", message: "worker stopping" },
    };
    const task = taskOfJob(retrying, { includeArtifacts: true, skill: "hipaa.scan" });
    expect(task.status.state).toBe("TASK_STATE_SUBMITTED");
    expect(task.status.message.parts[0]).toEqual({
      text: expect.stringContaining("Attempt 1 of 3 failed and another will follow: scan_cancelled"),
    });
  });

  it("task id = job id; the status carries the time of the last change and a message from the agent", () => {
    const task = taskOfJob(running, { includeArtifacts: true, skill: "hipaa.scan" });
    expect(task).toMatchObject({
      id: JOB_ID,
      contextId: JOB_ID, // dispatched outside A2A: its own context
      status: {
        state: "TASK_STATE_WORKING",
        timestamp: running.started_at,
        message: { role: "ROLE_AGENT", taskId: JOB_ID, contextId: JOB_ID },
      },
      metadata: { skill: "hipaa.scan", npi: "1234567893", attempts: 1, max_attempts: 3 },
    });
    expect(task.artifacts).toBeUndefined();
    roundTrips(task);
    expect(contextIdOfJob({ job_id: JOB_ID, a2a_context_id: "ctx-1" })).toBe("ctx-1");
  });

  it("a completed job's result is the artifact, when artifacts are asked for", () => {
    const task = taskOfJob({ ...completed, a2a_context_id: "ctx-1" }, { includeArtifacts: true, skill: "hipaa.scan" });
    expect(task.contextId).toBe("ctx-1");
    expect(task.artifacts).toEqual([
      expect.objectContaining({ artifactId: "result", parts: [{ data: result, mediaType: "application/json" }] }),
    ]);
    expect(task.status.message.parts[0]).toEqual({ text: expect.stringContaining("grade B, score 84/100") });
    roundTrips(task);
    expect(taskOfJob(completed, { includeArtifacts: false, skill: "hipaa.scan" }).artifacts).toBeUndefined();
  });

  it("a failure's status message names the typed job error code and its meaning, as text and as data", () => {
    const task = taskOfJob(failed, { includeArtifacts: true, skill: "hipaa.scan" });
    expect(task.status.message.parts).toEqual([
      {
        text:
          "Scan of NPI 1234567893 failed, and its credits were refunded: target_unreachable — no check could reach " +
          "the practice's domain or website (dns: no answer for queue.example).",
      },
      {
        data: {
          error: {
            code: "target_unreachable",
            message: "dns: no answer for queue.example",
            meaning: "no check could reach the practice's domain or website",
          },
        },
        mediaType: "application/json",
      },
    ]);
    roundTrips(task);
    expect(taskOfJob(cancelled, { includeArtifacts: true, skill: "hipaa.scan" }).status.message.parts).toEqual([
      { text: "Scan of NPI 1234567893 was cancelled before it ran; its credits were refunded." },
    ]);
  });

  it("ListTasks' status filter: the five job states, nothing for states a job never takes, no filter for unspecified", () => {
    expect(jobListStateOf("TASK_STATE_CANCELED")).toBe("cancelled");
    expect(jobListStateOf("TASK_STATE_FAILED")).toBe("failed");
    expect(jobListStateOf("TASK_STATE_INPUT_REQUIRED")).toBeNull();
    expect(jobListStateOf("TASK_STATE_UNSPECIFIED")).toBeUndefined();
    expect(jobListStateOf(undefined)).toBeUndefined();
  });

  it("a page of jobs is a ListTasksResponse whose nextPageToken is always present", () => {
    const last = listTasksResponse(
      { jobs: [completed, base], next_cursor: null, total: 2 },
      { pageSize: 50, includeArtifacts: false, skill: "hipaa.scan" },
    );
    expect(last).toMatchObject({ nextPageToken: "", pageSize: 50, totalSize: 2 });
    expect(last.tasks.map((x) => x.status.state)).toEqual(["TASK_STATE_COMPLETED", "TASK_STATE_SUBMITTED"]);
    expect(ListTasksResponse.fromJSON(last).tasks).toHaveLength(2);
    expect(
      listTasksResponse(
        { jobs: [], next_cursor: "abc", total: 9 },
        { pageSize: 1, includeArtifacts: false, skill: "hipaa.scan" },
      ).nextPageToken,
    ).toBe("abc");
  });

  it("a short skill's answer is a SendMessageResponse message: a summary line and the result as JSON data", () => {
    const message = skillResultMessage({ operation: gradeDeclaration, result, contextId: "ctx", messageId: "m" });
    // The same one-paragraph summary MCP shows beside its structured result.
    expect(message.parts[0]).toEqual({ text: summarizeOutput(gradeDeclaration, result) });
    const sdk = SendMessageResponse.fromJSON({ message });
    expect(sdk.payload?.$case).toBe("message");
    expect(SendMessageResponse.toJSON(sdk)).toEqual({ message });
  });
});
