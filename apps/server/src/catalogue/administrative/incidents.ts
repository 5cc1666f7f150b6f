import { dateOf } from "../../administrative/calendar-date.js";
import type { IncidentRecord } from "../../administrative/incident-schema.js";
import {
  createIncident,
  getIncidentRow,
  incidentView,
  listIncidents,
  patchIncident,
} from "../../administrative/incidents.js";
import { refreshAdministrativeAssessment } from "../../administrative/refresh.js";
import { bindOperation } from "../../operations/operation.js";
import { practiceOfCaller } from "../../services/practice-of-caller.js";
import {
  createIncidentDeclaration,
  getIncidentDeclaration,
  listIncidentsDeclaration,
  patchIncidentDeclaration,
} from "./incidents.declaration.js";

export const createIncidentOperation = bindOperation(createIncidentDeclaration, async ({ npi, ...record }, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
  const view = await createIncident(call.deps, practice.npi, record);
  call.setResource(`incident:${view.id}`);
  await refreshAdministrativeAssessment(call.deps, practice.npi);
  return view;
});

export const listIncidentsOperation = bindOperation(listIncidentsDeclaration, async ({ npi, status }, call) => {
  const practice = await practiceOfCaller(call.deps, call.caller!.accountId, npi);
  call.setResource(`practice:${practice.npi}`);
  return { npi: practice.npi, incidents: await listIncidents(call.deps, practice.npi, status) };
});

export const getIncidentOperation = bindOperation(getIncidentDeclaration, async ({ id }, call) => {
  call.setResource(`incident:${id}`);
  return incidentView(await getIncidentRow(call.deps, id, call.caller!.accountId), dateOf(call.deps.now()));
});

export const patchIncidentOperation = bindOperation(patchIncidentDeclaration, async ({ id, ...changes }, call) => {
  call.setResource(`incident:${id}`);
  const row = await getIncidentRow(call.deps, id, call.caller!.accountId);
  const view = await patchIncident(call.deps, row, changes as Partial<IncidentRecord>);
  await refreshAdministrativeAssessment(call.deps, row.npi);
  return view;
});
