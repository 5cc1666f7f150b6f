import type { Generated } from "kysely";
import type {
  DirectoryImportsTable,
  NppesEndpointsTable,
  NppesProvidersTable,
  NppesTaxonomiesTable,
  PracticeClaimsTable,
} from "./directory-schema.js";
import type {
  PortalInvitesTable,
  PortalRecoveryCodesTable,
  PortalSessionsTable,
  PortalUsersTable,
} from "./portal-schema.js";

// Times are ISO-8601 UTC strings with milliseconds in both engines: they sort correctly as text and read the
// same from SQLite and PostgreSQL. JSON columns are text holding JSON. Booleans are 0/1 integers.

export interface AccountsTable {
  id: string;
  name: string;
  plan: string;
  tier: string;
  credits: number;
  email: string | null;
  /** AES-256-GCM ciphertext of the webhook signing secret (see secrets/master-key.ts). */
  webhook_secret_enc: string;
  created_at: string;
}

/** A plan an account has been on, from `started_at` until the next row's (migration 033). */
export interface AccountPlansTable {
  id: Generated<number>;
  account_id: string;
  plan: string;
  started_at: string;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  /** SHA-256 (hex) of the key's secret part; the key itself is never stored. */
  secret_hash: string;
  label: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface PracticesTable {
  npi: string;
  account_id: string;
  name: string;
  domain: string;
  website: string | null;
  created_at: string;
  /** Two-letter state (breach matching); null when not given. */
  state: string | null;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  account_id: string;
  delta: number;
  balance_after: number;
  operation: string;
  reference: string | null;
  created_at: string;
}

/** The latest examination of one subject (external surface, scanner host, records) of a practice. */
export interface AssessmentsTable {
  npi: string;
  source: string;
  subject: string;
  categories: string;
  assessed_at: string;
  reference: string | null;
}

export interface FindingsTable {
  npi: string;
  source: string;
  subject: string;
  finding_id: string;
  check_id: string;
  category: string;
  severity: string;
  title: string;
  detail: string;
  evidence: string;
  remediation: string;
  controls: string;
  host: string | null;
  grade_cap: string | null;
  first_seen: string;
  last_seen: string;
  /** Set when a later assessment of the same subject no longer reports the finding. */
  resolved_at: string | null;
  /** The scanner phase that reported an internal finding (null for other sources). */
  phase: string | null;
}

/** The latest completed result of one scanner phase on one host of a practice (docs/scanner.md). */
export interface InternalResultsTable {
  npi: string;
  /** The scanning machine's host name, lower-cased (the internal assessment's subject). */
  subject: string;
  phase: string;
  /** When the scan that produced it completed (never after it arrived). */
  assessed_at: string;
  scan_id: string;
  /** The scan's scope as uploaded (JSON {mode, targets}). */
  scope: string;
  /** What the requirements read of the phase's facts (JSON, services/result-evidence.ts); null before migration 029. */
  evidence: string | null;
}

export interface GradesTable {
  id: Generated<number>;
  npi: string;
  computed_at: string;
  scan_date: string;
  compliance_score: number;
  grade: string;
  scoring_version: string;
  /** The full grade record as served. */
  record: string;
  /** When the first internal result the grade counted as current expires; the grade is recomputed then. */
  valid_until: string | null;
}

/**
 * An audit event's fields. On SQLite they are virtual columns read from the stored record text (`record`, the
 * canonical JSON the log hashes; migration 024): insert through audit_event_input or, on the hot path, the text
 * itself. On PostgreSQL they are the stored columns.
 */
export interface AuditEventsTable {
  id: Generated<number>;
  at: string;
  request_id: string;
  actor_key_id: string | null;
  actor_account_id: string | null;
  /** The OS user who ran an operator command (transport cli); null otherwise. Hashed only when set. */
  actor_operator: string | null;
  /** The operation (`hipaa.grade`, `createDeployToken`), or `METHOD /route` for a request no operation served. */
  action: string;
  /**
   * How the call came: rest, jsonrpc, mcp or a2a over HTTP; cli (an operator command), worker (the job worker) or
   * portal (a person in the customer portal: its own events, and the operations it invokes).
   */
  transport: string;
  resource: string | null;
  outcome: string;
  status: number;
  /** The error code answered (null: success, or an event from before audit record v1). */
  code: string | null;
  /** 16 random bytes, hex: part of the hashed record. */
  salt: string;
  /**
   * The event's place in the log. Read it from audit_entries (or the runs): in audit_events it is only the
   * PostgreSQL sequencer's mark of a sequenced event (null until then), and always null on SQLite (migration 018).
   */
  leaf_index: number | null;
}

/**
 * Where writers other than the hot path insert an event's fields (migration 024): on SQLite a trigger stores the
 * record's canonical text in audit_events (whose fields are read from it), on PostgreSQL the insert passes through.
 */
export type AuditEventInputView = Omit<AuditEventsTable, "id" | "leaf_index">;

/** An event with its leaf (null until sequenced): the audit_entries view, what readers select. */
export type AuditEntriesView = AuditEventsTable & {
  /** SHA-256(0x00 || the record's RFC 8785 JSON), the tree's input; null until the sequencer hashed the record. */
  leaf_hash: Buffer | null;
};

/** A signed checkpoint of the audit log (docs/audit.md). */
export interface AuditCheckpointsTable {
  size: number;
  root_hash: string;
  /** C2SP signed note holding the C2SP tlog-checkpoint. */
  note: string;
  /** The size of the previous checkpoint, which the proof starts from (null for the first). */
  consistency_from: number | null;
  /** JSON array of hex hashes. */
  consistency_proof: string;
  created_at: string;
  /** The epoch of the key that signed it (audit_log_keys). */
  key_epoch: Generated<number>;
}

/** One of the audit log's signing keys (migration 030): the first (epoch 0) and one per rotation. */
export interface AuditLogKeysTable {
  epoch: number;
  /** C2SP verifier key `<origin>+<hash>+<base64 key>`. */
  verifier_key: string;
  /** The Ed25519 private key (PKCS#8 PEM) sealed under the master key (secrets/master-key.ts). */
  sealed_key: string;
  /** The log size from which this key signs (0 for the first; the handover's size for the others). */
  from_size: number | string;
  /** From epoch 1: the checkpoint of the log at from_size, signed by the previous key and this one. */
  handover: string | null;
  created_at: string;
}

/** The anchor of one checkpoint on an EVM chain (docs/audit.md#anchoring); anchored only once `finalized`. */
export interface AuditAnchorsTable {
  /** The checkpoint's tree size (audit_checkpoints.size). */
  size: number;
  chain_id: number;
  /** The anchor contract's address (0x, checksummed). */
  contract: string;
  /** The checkpoint's UTC day as YYYYMMDD, as the Anchored event carries it. */
  day: number;
  /** pending: no transaction (or it must be sent again); sent: transaction sent, maybe mined; finalized: anchored. */
  state: "pending" | "sent" | "finalized";
  /** 0x hash of the transaction last sent; stored before it is broadcast. */
  tx_hash: string | null;
  /** The block the transaction was last seen in (null until mined). */
  block_number: number | null;
  block_hash: string | null;
  /** Failed rounds in a row (drives the backoff; 0 after a round that worked). */
  attempts: number;
  /** What the last failed round met, for operators: never a key or the RPC URL. */
  last_error: string | null;
  next_attempt_at: string;
  /** The round working on this anchor (a random token) and until when (several serving processes share the work). */
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  sent_at: string | null;
  finalized_at: string | null;
}

/** The state of the audit log's tree between sequencer runs (one row, id 1). */
export interface AuditLogTable {
  id: number;
  size: number;
  /** MerkleFrontier state (JSON). */
  frontier: string;
  /** The tree head at `size`, hex. */
  root_hash: string;
  updated_at: string;
  /** SQLite: the highest event id sequenced (waiting events are those above it). Unused on PostgreSQL. */
  sequenced_id: number | string;
  /** The log's name in its checkpoints, fixed when it got its first key (migration 030; null before). */
  origin: string | null;
}

/** The sequencer's journal: a run of consecutive event ids given consecutive leaf indexes from first_index on. */
export interface AuditSequenceRunsTable {
  first_index: number | string;
  first_id: number | string;
  last_id: number | string;
  /** The run's leaf hashes, 32 bytes each, back to back in index order (migration 018). */
  leaf_hashes: Buffer | null;
}

/** What is kept beside a record and not hashed: retention may prune it (docs/audit.md). */
export interface AuditContextTable {
  event_id: number;
  at: string;
  client_ip: string;
  duration_ms: number;
}

/** audit_events with their context, for reading (a view). */
export type AuditTrailView = Omit<AuditEntriesView, "id"> & {
  id: number;
  client_ip: string | null;
  duration_ms: number | null;
};

export interface RateLimitsTable {
  bucket: string;
  window_start: number;
  count: number;
  expires_at: number;
}

/** Breach records tracked for practices (filled by the breach-data feature). */
export interface BreachesTable {
  id: string;
  npi: string | null;
  source: string;
  reported_at: string;
  individuals_affected: number | null;
  created_at: string;
}

/** One import of a public feed (docs/intelligence.md): what, from where, which version, when, how many. */
export interface FeedImportsTable {
  id: Generated<number>;
  /** hhs_breaches | kev | eol */
  feed: string;
  /** The file path or URL read. */
  source: string;
  /** The feed's own version (KEV catalogVersion), else the newest date in the data. */
  version: string;
  sha256: string;
  records: number;
  /** 0 when the same content was already imported (an idempotent re-run). */
  changed: number;
  imported_at: string;
  /** JSON: per-feed notes (duplicates collapsed, ignored columns, products). */
  detail: string;
}

/** A breach of 500+ records from the HHS OCR breach portal. */
export interface HhsBreachesTable {
  id: string;
  entity_name: string;
  state: string | null;
  entity_type: string | null;
  individuals_affected: number | null;
  submitted_on: string;
  /** JSON string array. */
  breach_types: string;
  /** JSON string array. */
  locations: string;
  /** 1 yes, 0 no, null not stated. */
  business_associate: number | null;
  description: string | null;
  import_id: number;
}

export interface HhsBreachNamesTable {
  name_key: string;
  /** The report's state, '' when blank. */
  state: string;
  breach_id: string;
}

/** One CISA KEV catalogue entry (the catalogue is replaced whole on import). */
export interface KevEntriesTable {
  cve_id: string;
  vendor_project: string;
  product: string;
  /** Matching key (intel/product-identity.ts); null for names too generic to match on. */
  product_key: string | null;
  name: string;
  date_added: string;
  description: string;
  required_action: string;
  due_date: string;
  /** "Known" or "Unknown" as KEV says. */
  ransomware: string;
  notes: string;
  /** JSON string array. */
  cwes: string;
  /** JSON AffectedRange[] read from the description (intel/kev-ranges.ts). */
  ranges: string;
}

/** endoflife.date cycles of one product (JSON EolCycle[]). */
export interface EolProductsTable {
  product: string;
  cycles: string;
  import_id: number;
}

/** Documents generated for practices (reports, policies). */
export interface DocumentsTable {
  id: string;
  npi: string;
  kind: string;
  created_at: string;
}

export interface JobsTable {
  id: string;
  account_id: string;
  npi: string;
  scan_type: string;
  /** accepted → running → completed | failed */
  status: string;
  callback_url: string | null;
  attempts: number;
  max_attempts: number;
  /** Not claimable before this time (retry backoff). */
  run_after: string;
  /** The worker holding the job, and until when; an expired lease means the worker died. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  duration_ms: number | null;
  credits_charged: number;
  /** JobResult JSON once completed. */
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  /** The contextId of the A2A message that started the job (null when it was dispatched over another transport). */
  a2a_context_id: string | null;
  /**
   * JSON ScanBasis (reports/scan-basis.ts), written when the job completes: its grade row and the 13 requirements as
   * of its completion. Null before (and for jobs completed before migration 028).
   */
  report_basis: string | null;
  /** The claim a claimant dispatched this scan on before proving control (migration 032); null for an owner's scan. */
  claim_id: string | null;
  /** Such a scan's answer: the public grade record of the claimed domain (JSON); its findings are kept for no one. */
  public_result: string | null;
}

/** Webhook outbox: one row per delivery, retried until delivered or give_up_at. */
export interface WebhookDeliveriesTable {
  id: string;
  job_id: string;
  account_id: string;
  event: string;
  url: string;
  /** The callback URL's origin: deliveries in flight to one receiver are bounded (see webhooks/deliveries.ts). */
  receiver: string;
  /** The exact bytes sent on every attempt. */
  body: string;
  /** pending → delivered | failed */
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  give_up_at: string;
}

/** Deploy tokens for enrolling scanners: stored as a SHA-256 of the whole token, limited in time and uses. */
export interface DeployTokensTable {
  id: string;
  token_hash: string;
  npi: string;
  account_id: string;
  created_by_key_id: string | null;
  created_at: string;
  expires_at: string;
  max_uses: number;
  uses: number;
  revoked_at: string | null;
}

/** A registered scanner: its Ed25519 public key signs its uploads. */
export interface AgentsTable {
  id: string;
  npi: string;
  account_id: string;
  deploy_token_id: string;
  /** Raw 32-byte Ed25519 public key, base64url. */
  public_key: string;
  hostname: string;
  platform: string;
  os_release: string | null;
  scanner_version: string;
  /** 1 for one-shot identities (CI runs). */
  ephemeral: number;
  registered_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}

/** Uploaded internal scans, keyed by the scanner's scan id (the upload's idempotency key). */
export interface ScanUploadsTable {
  scan_id: string;
  agent_id: string;
  npi: string;
  /** SHA-256 of the body as received: a replay must match it (idempotency), and it identifies the signed body. */
  body_sha256: string;
  received_at: string;
  /** When the scan completed (the document's completed_at): orders an agent's scans for facts retention. */
  completed_at: string;
  /** JSON ScanUploadSummary: scanner, host, scope, times, each phase's status and finding count. Kept for good. */
  summary: string;
  /** JSON phase facts by phase id; null once pruned (kept for the agent's newest scans only). No raw document. */
  facts: string | null;
  /** The acceptance answered, replayed verbatim for a repeated upload. */
  acceptance: string;
}

/** Small server-wide facts (e.g. that the bootstrap account was created), keyed once. */
export interface ServerMetaTable {
  key: string;
  value: string;
}

export interface Database {
  server_meta: ServerMetaTable;
  jobs: JobsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  deploy_tokens: DeployTokensTable;
  agents: AgentsTable;
  scan_uploads: ScanUploadsTable;
  accounts: AccountsTable;
  account_plans: AccountPlansTable;
  api_keys: ApiKeysTable;
  practices: PracticesTable;
  credit_ledger: CreditLedgerTable;
  assessments: AssessmentsTable;
  findings: FindingsTable;
  internal_results: InternalResultsTable;
  grades: GradesTable;
  audit_events: AuditEventsTable;
  audit_context: AuditContextTable;
  audit_log: AuditLogTable;
  audit_sequence_runs: AuditSequenceRunsTable;
  audit_checkpoints: AuditCheckpointsTable;
  audit_log_keys: AuditLogKeysTable;
  audit_anchors: AuditAnchorsTable;
  audit_trail: AuditTrailView;
  /** audit_events with each event's leaf index and hash from its sequencer run (null until sequenced): what readers select. */
  audit_entries: AuditEntriesView;
  audit_event_input: AuditEventInputView;
  rate_limits: RateLimitsTable;
  breaches: BreachesTable;
  documents: DocumentsTable;
  feed_imports: FeedImportsTable;
  hhs_breaches: HhsBreachesTable;
  hhs_breach_names: HhsBreachNamesTable;
  kev_entries: KevEntriesTable;
  eol_products: EolProductsTable;
  practice_profiles: PracticeProfilesTable;
  incidents: IncidentsTable;
  restore_tests: RestoreTestsTable;
  policy_documents: PolicyDocumentsTable;
  risk_assessments: RiskAssessmentsTable;
  workforce_members: WorkforceMembersTable;
  training_completions: TrainingCompletionsTable;
  business_associates: BusinessAssociatesTable;
  vendor_domain_grades: VendorDomainGradesTable;
  portal_users: PortalUsersTable;
  portal_invites: PortalInvitesTable;
  portal_recovery_codes: PortalRecoveryCodesTable;
  portal_sessions: PortalSessionsTable;
  directory_imports: DirectoryImportsTable;
  nppes_providers: NppesProvidersTable;
  nppes_taxonomies: NppesTaxonomiesTable;
  nppes_endpoints: NppesEndpointsTable;
  practice_claims: PracticeClaimsTable;
}

/** The external grade of a vendor's domain (null grade: the scan could not assess it). */
export interface VendorDomainGradesTable {
  domain: string;
  grade: string | null;
  score: number | null;
  detail: string;
  scanned_at: string;
}

/** The practice's profile facts (security officer, size, …) as JSON (administrative/profile.ts). */
export interface PracticeProfilesTable {
  npi: string;
  profile: string;
  updated_at: string;
}

/** A security incident: its record (JSON) and the columns lists are read by. */
export interface IncidentsTable {
  id: string;
  npi: string;
  status: string;
  discovered_on: string;
  record: string;
  created_at: string;
  updated_at: string;
}

/** A restore test the practice recorded (readiness/restore-tests.ts). */
export interface RestoreTestsTable {
  id: string;
  npi: string;
  /** YYYY-MM-DD. */
  tested_on: string;
  system: string;
  /** The system's name lower-cased, matched against scanner hosts' names. */
  system_key: string;
  data_restored: string;
  time_to_restore_minutes: number;
  /** `succeeded` or `failed`. */
  outcome: string;
  recorded_at: string;
}

/** One generated version of one of the 24 policies (Markdown; HTML is rendered from it). */
export interface PolicyDocumentsTable {
  id: string;
  npi: string;
  policy_number: number;
  version: number;
  title: string;
  markdown: string;
  /** JSON array of the CFR citations the document makes. */
  citations: string;
  generated_at: string;
}

/** Questionnaire responses (`questionnaire`) and SRA reports (`sra`), versioned per practice. */
export interface RiskAssessmentsTable {
  id: string;
  npi: string;
  kind: string;
  version: number;
  body: string;
  created_at: string;
}

export interface WorkforceMembersTable {
  npi: string;
  member_id: string;
  name: string;
  role: string;
  hired_on: string;
  terminated_on: string | null;
  updated_at: string;
}

export interface TrainingCompletionsTable {
  id: Generated<number>;
  npi: string;
  member_id: string;
  course: string;
  completed_on: string;
  recorded_at: string;
}

/** A business associate of a practice and its BAA (JSON record). */
export interface BusinessAssociatesTable {
  npi: string;
  vendor_id: string;
  record: string;
  updated_at: string;
}
