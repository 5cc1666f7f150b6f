import { readFileSync } from "node:fs";
import { Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { createFakeHost } from "../../host/fake-host.js";
import { createRealHost } from "../../host/real-host.js";
import { readMysqlAccounts } from "./linux-mysql-accounts.js";
import {
  MARIADB_ACCOUNTS_QUERY,
  MYSQL_ACCOUNTS_QUERY,
  mysqlPasswordlessFindings,
  parseMysqlAccounts,
} from "./mysql-accounts.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const BASE = "--no-defaults -u root --password= --connect-timeout=3 -B -N";
const listener3306 = [{ address: "127.0.0.1", port: 3306 }];

describe("MySQL/MariaDB accounts", () => {
  it("parses this machine's MariaDB accounts: root without a password twice, the locked and unix_socket ones not", () => {
    const accounts = parseMysqlAccounts(fixture("linux-mariadb-accounts.tsv"))!;
    expect(accounts.map((a) => [a.user, a.host, a.emptyPassword, a.locked])).toEqual([
      ["mariadb.sys", "localhost", true, true],
      ["root", "localhost", true, false],
      ["mysql", "localhost", false, false],
      ["root", "127.0.0.1", true, false],
    ]);
    const findings = mysqlPasswordlessFindings(accounts, "loopback");
    expect(findings.map((f) => [f.id, f.severity, f.category, f.controls])).toEqual([
      [
        "ports.mysql_account_without_password:root@localhost",
        "medium",
        "access_control",
        ["164.312(d)", "164.312(a)(1)"],
      ],
      [
        "ports.mysql_account_without_password:root@127.0.0.1",
        "medium",
        "access_control",
        ["164.312(d)", "164.312(a)(1)"],
      ],
    ]);
    expect(parseMysqlAccounts(fixture("linux-mariadb-access-denied.txt"))).toBeNull();
  });

  it("high only when the server listens beyond loopback and the account admits other machines", () => {
    const accounts = parseMysqlAccounts(
      "app\t%\tmysql_native_password\t1\tN\tN\nroot\tlocalhost\tmysql_native_password\t1\tN\tN\nsock\tlocalhost\tunix_socket\t1\tN\tN\nr\t\t\t1\tfalse\tY\n",
    )!;
    expect(mysqlPasswordlessFindings(accounts, "network").map((f) => [f.id, f.severity])).toEqual([
      ["ports.mysql_account_without_password:app@any", "high"],
      ["ports.mysql_account_without_password:root@localhost", "medium"],
    ]);
    // Bound to every interface but dropped by the host firewall: no other machine gets to the login.
    const dropped = mysqlPasswordlessFindings(accounts, "network", false);
    expect(dropped[0]).toMatchObject({ severity: "medium", evidence: { firewall_drops_connections: true } });
  });

  it("reads through the Unix socket first, falls back to MySQL's query shape, and names what it could not read", async () => {
    const mysql8 = createFakeHost({
      platform: "linux",
      commands: {
        [`mariadb ${BASE} -e ${MARIADB_ACCOUNTS_QUERY}`]: {
          exitCode: 1,
          stderr: "ERROR 1146 (42S02) at line 1: Table 'mysql.global_priv' doesn't exist\n",
        },
        [`mariadb ${BASE} -e ${MYSQL_ACCOUNTS_QUERY}`]: "root\tlocalhost\tauth_socket\t1\tN\tN\n",
      },
    });
    expect(await readMysqlAccounts(mysql8, listener3306)).toEqual({
      accounts: [
        { user: "root", host: "localhost", plugin: "auth_socket", emptyPassword: true, locked: false, role: false },
      ],
      via: "mariadb as root through the Unix socket",
    });
    const denied = createFakeHost({
      platform: "linux",
      commands: {
        [`mysql ${BASE} -e ${MARIADB_ACCOUNTS_QUERY}`]: {
          exitCode: 1,
          stderr: fixture("linux-mariadb-access-denied.txt"),
        },
        [`mysql ${BASE} -h 127.0.0.1 -P 3306 -e ${MARIADB_ACCOUNTS_QUERY}`]: {
          exitCode: 1,
          stderr: fixture("linux-mariadb-refused.txt"),
        },
      },
    });
    const reading = await readMysqlAccounts(denied, listener3306);
    expect(reading).toEqual({
      unavailable:
        "mysql through the Unix socket: ERROR 1045 (28000): Access denied for user 'hcs_no_such_user'@'127.0.0.1' (using password: NO); mysql through 127.0.0.1: ERROR 2002 (HY000): Can't connect to server on '127.0.0.1' (115)",
    });
    // No server here: nothing is run.
    const none = createFakeHost({ platform: "linux" });
    expect(await readMysqlAccounts(none, [{ address: "0.0.0.0", port: 22 }])).toBeNull();
    expect(none.calls.exec).toEqual([]);
  });
});

/** Whether something accepts TCP connections on 127.0.0.1:port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = new Socket();
    s.setTimeout(1000);
    const done = (answer: boolean) => {
      s.destroy();
      resolve(answer);
    };
    s.once("connect", () => done(true));
    s.once("error", () => done(false));
    s.once("timeout", () => done(false));
    s.connect(port, "127.0.0.1");
  });

describe.runIf(process.platform === "linux")("MySQL/MariaDB on this machine (read-only)", () => {
  it("finds the accounts of the local server that need no password", async (ctx) => {
    if (!(await listening(3306))) {
      console.log("skipped: no MySQL/MariaDB listening on 127.0.0.1:3306");
      return ctx.skip();
    }
    const host = await createRealHost();
    const reading = await readMysqlAccounts(host, listener3306);
    if (reading && "unavailable" in reading && /no mysql or mariadb client/.test(reading.unavailable)) {
      console.log("skipped: no mysql or mariadb client installed");
      return ctx.skip();
    }
    expect(reading).not.toBeNull();
    if (!reading || !("accounts" in reading)) throw new Error(`not read: ${JSON.stringify(reading)}`);
    expect(reading.accounts.length).toBeGreaterThan(0);
    // Whatever this server holds, every account reported has an empty password, a password method, and no lock.
    const findings = mysqlPasswordlessFindings(reading.accounts, "loopback");
    const reported = new Set(findings.map((f) => `${f.evidence?.user}@${f.evidence?.host}`));
    for (const a of reading.accounts.filter((x) => reported.has(`${x.user}@${x.host}`)))
      expect(a).toMatchObject({ emptyPassword: true, locked: false, role: false });
    // This machine's MariaDB (test set-up: root with an empty password) is the real case the check was written for.
    if (reading.accounts.some((a) => a.user === "root" && a.host === "127.0.0.1" && a.emptyPassword))
      expect(findings.map((f) => f.id)).toContain("ports.mysql_account_without_password:root@127.0.0.1");
  }, 30_000);
});
