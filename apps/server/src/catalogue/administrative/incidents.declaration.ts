import {
  CreateIncidentInputSchema,
  IncidentIdInputSchema,
  IncidentListSchema,
  IncidentViewSchema,
  ListIncidentsInputSchema,
  PatchIncidentInputSchema,
} from "../../administrative/incident-schema.js";
import { declareOperation } from "../../operations/operation.js";

const NOT_FOUND = { id: { code: "not_found", message: "no such incident of your account" } } as const;

// A named value: the schema's fields are built from a record, which a literal's excess-property check cannot see.
const PATCH_EXAMPLE: { id: string } & Record<string, unknown> = {
  id: "inc_0123456789abcdef",
  summary: "The laptop was encrypted; the key was not with it.",
};

export const createIncidentDeclaration = declareOperation({
  id: "createIncident",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: {
    npi: "1234567893",
    title: "Laptop stolen from a car",
    category: "theft",
    discovered_on: "2026-11-20",
    phi_involved: true,
  },
  summary: "Record a security incident with its breach risk assessment",
  description:
    "The incident, the four-factor assessment of 164.402(2) (nature and extent of the PHI, who received it, whether " +
    "it was acquired or viewed, mitigation), and the answer: the determination (incident or breach) and, for a " +
    "breach, the notification clock — individuals, HHS and media, each with its due date computed from the " +
    "discovery date. Free text describes the event, never a patient.",
  input: CreateIncidentInputSchema,
  output: IncidentViewSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: false,
  openWorld: false,
  rest: { method: "post", path: "/v1/incidents", status: 201 },
});

export const listIncidentsDeclaration = declareOperation({
  id: "listIncidents",
  group: "a",
  access: { rule: "owner", of: "practice", field: "npi", optional: true },
  example: { npi: "1234567893" },
  summary: "The practice's security incidents and their notification clocks",
  description: "Most recently discovered first; `status` filters. Each with its determination and clock as of today.",
  input: ListIncidentsInputSchema,
  output: IncidentListSchema,
  errors: ["invalid_npi", "forbidden", "not_found"],
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/incidents" },
});

export const getIncidentDeclaration = declareOperation({
  id: "getIncident",
  group: "a",
  access: { rule: "owner", of: "incident", field: "id" },
  example: { id: "inc_0123456789abcdef" },
  summary: "One security incident with its determination and notification clock",
  description: "An incident of one of your practices; any other id is 404.",
  input: IncidentIdInputSchema,
  output: IncidentViewSchema,
  errors: ["not_found"],
  inputErrors: NOT_FOUND,
  readOnly: true,
  openWorld: false,
  rest: { method: "get", path: "/v1/incidents/:id" },
});

export const patchIncidentDeclaration = declareOperation({
  id: "updateIncident",
  group: "a",
  access: { rule: "owner", of: "incident", field: "id" },
  example: PATCH_EXAMPLE,
  summary: "Move a security incident on: assessment, notices sent, status",
  description:
    "Any of the incident's fields; the record is checked whole again and the determination and clock recomputed. " +
    "Record the dates notices were sent (`notifications_sent`) to stop the clock.",
  input: PatchIncidentInputSchema,
  output: IncidentViewSchema,
  errors: ["not_found"],
  inputErrors: NOT_FOUND,
  readOnly: false,
  openWorld: false,
  rest: { method: "patch", path: "/v1/incidents/:id" },
});
