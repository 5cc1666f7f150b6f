#!/usr/bin/env node
import { GRADES, type Grade } from "@hcs/protocol";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { CliError, EXIT, type ExitCode, ExitWith } from "./cli/errors.js";
import { createOutput } from "./cli/output.js";
import type { CommandContext } from "./commands/context.js";
import { HostError } from "./host/host-error.js";
import { realHostIdentity } from "./host/identity.js";
import { ServerRefusal } from "./transport/server-refusal.js";
import { SCANNER_VERSION } from "./version.js";

// The only module that touches process state: argv, env, stdin/stdout/stderr, signals and the exit code.
const output = createOutput({ stdout: process.stdout, stderr: process.stderr }, process.env);
const abort = new AbortController();
let interrupted = 0;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    interrupted++;
    if (interrupted > 1) process.exit(130);
    output.err(`\n${signal}: stopping the scan (press Ctrl-C again to quit at once)`);
    abort.abort();
  });
}

const ctx: CommandContext = {
  output,
  env: process.env,
  platform: process.platform,
  identity: realHostIdentity,
  cwd: process.cwd(),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  signal: abort.signal,
  now: () => new Date(),
  version: SCANNER_VERSION,
};

function gradeOption(value: string): Grade {
  const g = value.toUpperCase();
  if (!GRADES.includes(g as Grade)) throw new InvalidArgumentError(`must be one of ${GRADES.join(", ")}`);
  return g as Grade;
}

function seconds(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError("must be a whole number of seconds, 1 or more");
  return Number(value);
}

const EXIT_CODES_HELP = `
Exit codes:
  0  ok
  1  failure (server refused, unreachable during registration, scan could not run)
  2  usage error (bad option, bad --targets, malformed deploy token)
  3  grade below --fail-under
  4  scan done but not uploaded yet: saved to the spool, sent by the next run or \`hcs-scanner flush\`
  130  interrupted (Ctrl-C or SIGTERM): the scan stops cleanly first; a second Ctrl-C quits at once
Under --json every error is also written to stdout as {"error":{"code":…,"message":…}}.

Configuration lives in --config-dir (default: HCS_SCANNER_CONFIG_DIR, else $XDG_CONFIG_HOME/hcs-scanner or
~/.config/hcs-scanner on Linux,
~/Library/Application Support/hcs-scanner on macOS, %APPDATA%\\hcs-scanner on Windows). NO_COLOR disables colour.`;

const program = new Command("hcs-scanner")
  .description(
    "HCS internal network scanner: a 12-phase HIPAA check of this machine and the network you name, uploaded signed to your HCS server.\nNo patient data ever leaves this machine: only counts, settings and locations.",
  )
  .version(SCANNER_VERSION)
  // A usage error is one line and a hint, not the whole help (as gh and trivy do).
  .showHelpAfterError("(see `hcs-scanner --help`, or `hcs-scanner <command> --help`)")
  .exitOverride()
  .addHelpText("after", EXIT_CODES_HELP);

const common = (cmd: Command) =>
  cmd
    .option("--config-dir <dir>", "where the identity, last scan and spool live")
    .option("--json", "machine-readable output on stdout (no progress)")
    .option("--verbose", "show each phase's diagnostic lines")
    .option("--quiet", "scan, one-shot: the counts and grade only; other commands: nothing but errors");

const tokenOptions = (cmd: Command) =>
  cmd
    .option("--key <token>", "deploy token (`-` reads it from stdin; on the command line it lands in shell history)")
    .option("--key-file <file>", "read the deploy token from a file")
    .addHelpText("after", "\nThe token may also come from the HCS_DEPLOY_TOKEN environment variable.");

const scanOptions = (cmd: Command) =>
  cmd
    .option(
      "--targets <list>",
      "hosts to probe: IPs, CIDRs (≤ 4096 addresses), host names, comma-separated; or `auto` for this machine's subnets. Default: this machine through loopback only",
    )
    .option("--phases <ids>", "comma-separated phase ids to run (see `hcs-scanner phases`); dependencies are added")
    .option(
      "--ephi-paths <paths>",
      "comma-separated folders to pattern-scan for ePHI (counts and locations only, never content)",
    )
    .option("--out <file>", "also write the full scan document (JSON) to this file")
    .option("--no-upload", "do not upload (the scan is still summarised and graded locally)")
    .addOption(new Option("--fail-under <grade>", "exit 3 when the grade is below this letter").argParser(gradeOption))
    .addOption(
      new Option(
        "--timeout <seconds>",
        "time budget of each phase (default: the phase's own, 2 to 10 minutes)",
      ).argParser(seconds),
    );

// Each command's module is loaded by its action, when that command runs: `--help`, `--version` and the light
// commands do not pay for the phases, the EOL dataset, systeminformation, execa, listr2 or got at start-up.
common(tokenOptions(program.command("register")))
  .description("Register this machine with your HCS server using a deploy token (once)")
  .option("--force", "replace an existing registration")
  .addHelpText(
    "after",
    "\nExamples:\n  hcs-scanner register --key-file ./hcs-deploy-token.txt\n  HCS_DEPLOY_TOKEN=$(cat token.txt) hcs-scanner register\n  pbpaste | hcs-scanner register --key -",
  )
  .action(async (o) => (await import("./commands/register.js")).registerCommand(ctx, o));

common(scanOptions(program.command("scan")))
  .description("Run the 12-phase scan and upload it (spooled if the server cannot be reached)")
  .addHelpText(
    "after",
    "\nExamples:\n  hcs-scanner scan                                  # this machine only\n  hcs-scanner scan --targets 10.20.0.0/24 --ephi-paths /srv/share\n  hcs-scanner scan --no-upload --json --out scan.json\n  hcs-scanner scan --phases ports,tls --targets printer.clinic.lan",
  )
  .action(async (o) => finish(await (await import("./commands/scan.js")).scanCommand(ctx, o)));

common(scanOptions(tokenOptions(program.command("one-shot"))))
  .description("Register a throw-away identity, scan, upload and print the grade (for CI)")
  .addHelpText(
    "after",
    '\nExample (CI, token from the pipeline\'s secret store):\n  HCS_DEPLOY_TOKEN="$HCS_TOKEN" hcs-scanner one-shot --fail-under C --json',
  )
  .action(async (o) => finish(await (await import("./commands/one-shot.js")).oneShotCommand(ctx, o)));

common(program.command("phases"))
  .description("List the 12 phases, their HIPAA controls and platform support")
  .addHelpText("after", "\nExamples:\n  hcs-scanner phases\n  hcs-scanner phases --json | jq '.[].id'")
  .action(async (o) => (await import("./commands/phases.js")).phasesCommand(ctx, o));

common(program.command("status"))
  .description("Show the registration, the last scan and uploads waiting in the spool")
  .addHelpText("after", "\nExamples:\n  hcs-scanner status\n  hcs-scanner status --json --config-dir /etc/hcs-scanner")
  .action(async (o) => (await import("./commands/status.js")).statusCommand(ctx, o));

common(program.command("flush"))
  .description("Send spooled uploads now (exit 4 if some still cannot be sent)")
  .addHelpText(
    "after",
    "\nExamples:\n  hcs-scanner flush\n  hcs-scanner flush --json   # in a scheduled task: exit 4 while the server stays unreachable",
  )
  .action(async (o) => finish(await (await import("./commands/flush.js")).flushCommand(ctx, o)));

function finish(code: ExitCode): void {
  if (code !== EXIT.ok) throw new ExitWith(code);
}

/** Exits once stdout and stderr have drained (a pipe may still hold the JSON a CI job is waiting for). */
function exit(code: number): void {
  // Interrupted (Ctrl-C, SIGTERM): the scan stopped cleanly and said so; the exit code says it was interrupted.
  if (interrupted > 0) code = 130;
  let pending = 2;
  const done = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write("", done);
  process.stderr.write("", done);
}

const FILE_ADVICE: Record<string, string> = {
  EACCES: "this user may not write there: fix the permissions or choose another path (--config-dir, --out)",
  EPERM: "this user may not write there: fix the permissions or choose another path (--config-dir, --out)",
  EROFS: "the file system is read-only: choose another path (--config-dir, --out)",
  ENOTDIR: "part of the path is a file, not a directory: choose another path (--config-dir, --out)",
  EEXIST: "part of the path is a file, not a directory: choose another path (--config-dir, --out)",
  EISDIR: "a directory stands where a file must go: remove it or choose another path",
  ENOSPC: "the disk is full: free space and run again",
  EDQUOT: "the disk quota is used up: free space and run again",
};

/** A file-system failure in words: which path, what happened, what to do (null for anything else). */
function fileErrorText(err: unknown): string | null {
  const e = err as NodeJS.ErrnoException | null;
  if (!e || typeof e.code !== "string" || !FILE_ADVICE[e.code]) return null;
  return `cannot use ${e.path ?? "a file"} (${e.code}): ${FILE_ADVICE[e.code]}`;
}

/** Under --json, a failure is also a JSON object on stdout (`{"error":{code,message}}`): scripts read one stream. */
const jsonRequested = process.argv.includes("--json");
function fail(code: string, message: string, exitCode: number, line = `hcs-scanner: ${message}`): void {
  output.err(line);
  if (jsonRequested) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  exit(exitCode);
}

program.parseAsync(process.argv).then(
  () => exit(EXIT.ok),
  (err: unknown) => {
    if (err instanceof ExitWith) return exit(err.exitCode);
    if (err instanceof CommanderError) {
      if (err.exitCode === 0) return exit(EXIT.ok);
      // commander printed the one-line error and the hint on stderr already.
      if (jsonRequested)
        process.stdout.write(
          `${JSON.stringify({ error: { code: "usage", message: err.message.replace(/^error: /, "") } })}\n`,
        );
      return exit(EXIT.usage);
    }
    if (err instanceof CliError) return fail(err.code, err.message, err.exitCode);
    if (err instanceof HostError) return fail(err.code, err.message, EXIT.failure);
    if (err instanceof ServerRefusal)
      return fail(
        "server_refused",
        `the server refused the request (${err.status} ${err.code}): ${err.message}`,
        EXIT.failure,
      );
    const fsError = fileErrorText(err);
    if (fsError) return fail("file_error", fsError, EXIT.failure);
    return fail("internal", `unexpected error: ${err instanceof Error ? err.message : String(err)}`, EXIT.failure);
  },
);
