import { readFileSync } from "node:fs";
import { createFakeHost, type FakeHost } from "../../host/fake-host.js";

const fixture = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), "utf8");
const osInfo = (platform: string, distro: string, release: string, hostname = "frontdesk-01") => ({
  platform,
  distro,
  release,
  codename: "",
  kernel: "",
  arch: "x64",
  hostname,
  build: "",
});
const interfaces = [
  {
    iface: "lo",
    ip4: "127.0.0.1",
    ip4subnet: "255.0.0.0",
    ip6: "::1",
    mac: "",
    internal: true,
    virtual: false,
    operstate: "up",
  },
  {
    iface: "eth0",
    ip4: "192.168.50.20",
    ip4subnet: "255.255.255.0",
    ip6: "",
    mac: "02:00:00:00:00:01",
    internal: false,
    virtual: false,
    operstate: "up",
  },
];
/** What answers through loopback on the macOS persona (its socket table shows 22 and 5900 on every interface). */
const openOnLoopback = ["127.0.0.1:22", "127.0.0.1:5900"];

/** A Debian workstation answered from fixtures captured on Debian 12. */
export function linuxPersona(): FakeHost {
  return createFakeHost({
    platform: "linux",
    isPrivileged: true,
    commands: {
      "ip -j neigh show": fixture("discovery/fixtures/linux-ip-neigh.json"),
      "lsblk -J -b -o NAME,TYPE,FSTYPE,MOUNTPOINT,SIZE,RM,RO": fixture(
        "disk_encryption/fixtures/linux-lsblk-plain.json",
      ),
      "dpkg-query -W -f=${Package}\t${Version}\n": fixture("asset_inventory/fixtures/linux-dpkg-query.txt"),
      "apt list --upgradable": fixture("patches/fixtures/linux-apt-list-upgradable.txt"),
      "ufw status verbose": fixture("segmentation/fixtures/linux-ufw-status-inactive.txt"),
      "sshd -T": fixture("mfa/fixtures/linux-sshd-T.txt"),
      "timedatectl show": fixture("access_control/fixtures/linux-timedatectl-show.txt"),
    },
    files: {
      "/etc/group": fixture("access_control/fixtures/linux-group.txt"),
      "/etc/passwd": fixture("access_control/fixtures/linux-passwd.txt"),
      "/etc/login.defs": fixture("access_control/fixtures/linux-login.defs"),
      "/etc/systemd/journald.conf": fixture("access_control/fixtures/linux-journald.conf"),
      "/etc/pam.d/common-password": fixture("access_control/fixtures/linux-pam-common-password.txt"),
      "/etc/profile": fixture("access_control/fixtures/linux-profile.txt"),
      "/etc/pam.d/common-auth": fixture("mfa/fixtures/linux-pam-common-auth.txt"),
      "/etc/pam.d/sshd": fixture("mfa/fixtures/linux-pam-sshd.txt"),
      // This machine's socket table: Redis, PostgreSQL, MySQL and others on loopback only, one port on 0.0.0.0.
      "/proc/net/tcp": fixture("ports/fixtures/linux-proc-net-tcp.txt"),
      "/proc/net/tcp6": fixture("ports/fixtures/linux-proc-net-tcp6.txt"),
      // This machine's Redis (Debian's stock configuration) and PostgreSQL (trust on the socket and 127.0.0.1).
      "/etc/redis/redis.conf": fixture("ports/fixtures/linux-redis.conf"),
      "/etc/postgresql/15/main/pg_hba.conf": fixture("ports/fixtures/linux-pg_hba.conf"),
    },
    sysinfo: {
      osInfo: osInfo("linux", "Debian GNU/Linux", "12"),
      networkInterfaces: interfaces,
      defaultGateway: "192.168.50.1",
      // A workstation with journald (volatile: no /var/log/journal), no syslog daemon and no auditd.
      processes: ["systemd", "systemd-journald", "sshd", "cron", "postgres", "redis-server"].map((name, i) => ({
        pid: i + 1,
        name,
        command: name,
        user: "root",
      })),
    },
    net: { open: ["127.0.0.1:5432", "127.0.0.1:6379", "127.0.0.1:3306"] },
  });
}

/**
 * The practice's EHR server (Debian 12, PostgreSQL): LUKS, a persistent journal with rsyslog, auditd and chrony,
 * and Veeam Agent for Linux backing it up nightly, with a restore tested in November 2025 (1 h 42 min). The
 * contingency and audit-control half of requirements 6 and 13 as a well-run practice shows it; its commands are
 * answered from the captures the linux persona uses, and Veeam's from the composed session list (FIXTURES.md).
 */
export function linuxEhrServerPersona(): FakeHost {
  return createFakeHost({
    platform: "linux",
    hostname: "ehr-server",
    isPrivileged: true,
    commands: {
      "ip -j neigh show": fixture("discovery/fixtures/linux-ip-neigh.json"),
      "lsblk -J -b -o NAME,TYPE,FSTYPE,MOUNTPOINT,SIZE,RM,RO": fixture(
        "disk_encryption/fixtures/linux-lsblk-luks.json",
      ),
      "dpkg-query -W -f=${Package}\t${Version}\n": fixture("asset_inventory/fixtures/linux-dpkg-query.txt"),
      "apt list --upgradable": fixture("patches/fixtures/linux-apt-list-upgradable.txt"),
      "ufw status verbose": fixture("segmentation/fixtures/linux-ufw-status-inactive.txt"),
      "sshd -T": fixture("mfa/fixtures/linux-sshd-T.txt"),
      "timedatectl show": fixture("access_control/fixtures/linux-timedatectl-show.txt"),
      "veeamconfig session list": fixture("backups/fixtures/linux-veeamconfig-session-list.txt"),
    },
    files: {
      "/etc/group": fixture("access_control/fixtures/linux-group.txt"),
      "/etc/passwd": fixture("access_control/fixtures/linux-passwd.txt"),
      "/etc/login.defs": fixture("access_control/fixtures/linux-login.defs"),
      "/etc/systemd/journald.conf": fixture("access_control/fixtures/linux-journald.conf"),
      // journald's `auto` storage keeps the journal on disk once /var/log/journal exists.
      "/var/log/journal/3f1c9a7e5b2d4c6e8a0b1d3f5e7a9c1b/system.journal": "",
      "/usr/sbin/auditd": "",
      "/etc/pam.d/common-password": fixture("access_control/fixtures/linux-pam-common-password.txt"),
      "/etc/profile": fixture("access_control/fixtures/linux-profile.txt"),
      "/etc/pam.d/common-auth": fixture("mfa/fixtures/linux-pam-common-auth.txt"),
      "/etc/pam.d/sshd": fixture("mfa/fixtures/linux-pam-sshd.txt"),
      "/proc/net/tcp": fixture("ports/fixtures/linux-proc-net-tcp.txt"),
      "/proc/net/tcp6": fixture("ports/fixtures/linux-proc-net-tcp6.txt"),
      "/etc/postgresql/15/main/pg_hba.conf": fixture("ports/fixtures/linux-pg_hba.conf"),
    },
    sysinfo: {
      osInfo: osInfo("linux", "Debian GNU/Linux", "12", "ehr-server"),
      networkInterfaces: interfaces,
      defaultGateway: "192.168.50.1",
      processes: [
        "systemd",
        "systemd-journald",
        "rsyslogd",
        "auditd",
        "chronyd",
        "sshd",
        "cron",
        "postgres",
        "veeamservice",
      ].map((name, i) => ({ pid: i + 1, name, command: name, user: "root" })),
    },
    net: { open: ["127.0.0.1:5432"] },
  });
}

/**
 * A Linux machine on which nothing could be read: no tools, no files, no privileges. What the scanner says when it
 * cannot tell (requirements 6 and 13 unknown for it).
 */
export function bareLinuxPersona(): FakeHost {
  return createFakeHost({
    platform: "linux",
    hostname: "kiosk-03",
    isPrivileged: false,
    sysinfo: { osInfo: osInfo("linux", "Debian GNU/Linux", "12", "kiosk-03") },
  });
}

/** A Mac with FileVault on, answered from public captures (FIXTURES.md); tools without one are absent. */
export function darwinPersona(): FakeHost {
  return createFakeHost({
    platform: "darwin",
    isPrivileged: false,
    commands: {
      "arp -an": fixture("discovery/fixtures/darwin-arp-an.txt"),
      "fdesetup status": fixture("disk_encryption/fixtures/darwin-fdesetup-on.txt"),
      "system_profiler SPApplicationsDataType": fixture(
        "asset_inventory/fixtures/darwin-system-profiler-applications.txt",
      ),
      "defaults read /Library/Preferences/com.apple.SoftwareUpdate": fixture(
        "patches/fixtures/darwin-defaults-softwareupdate-pending.txt",
      ),
      "dscl . -read /Groups/admin GroupMembership": fixture(
        "access_control/fixtures/darwin-dscl-admin-groupmembership.txt",
      ),
      "defaults read /Library/Preferences/com.apple.loginwindow": fixture(
        "access_control/fixtures/darwin-defaults-loginwindow.txt",
      ),
      "pwpolicy getaccountpolicies": fixture("access_control/fixtures/darwin-pwpolicy-getaccountpolicies.txt"),
      // sysadminctl answers on stderr.
      "sysadminctl -screenLock status": {
        stderr: fixture("access_control/fixtures/darwin-sysadminctl-screenlock-off.txt"),
      },
      // Not run as root: systemsetup refuses on stdout and exits 0. macOS 14 ships no /etc/security/audit_control.
      "systemsetup -getusingnetworktime": fixture(
        "access_control/fixtures/darwin-systemsetup-getusingnetworktime-denied.txt",
      ),
      // No capture of these two reads exists; defaults exits 1 when a key is unset (recorded in FIXTURES.md).
      "defaults read /Library/Managed Preferences/com.apple.security.smartcard enforceSmartCard": { exitCode: 1 },
      "defaults read /Library/Preferences/com.apple.security.smartcard enforceSmartCard": { exitCode: 1 },
      "netstat -anv -p tcp": fixture("ports/fixtures/darwin-netstat-anv-listen.txt"),
      "tmutil destinationinfo": fixture("backups/fixtures/darwin-tmutil-destinationinfo-network.txt"),
      "tmutil latestbackup": fixture("backups/fixtures/darwin-tmutil-latestbackup-hfs.txt"),
      "/usr/libexec/ApplicationFirewall/socketfilterfw --getglobalstate": fixture(
        "segmentation/fixtures/darwin-socketfilterfw-disabled.txt",
      ),
    },
    sysinfo: { osInfo: osInfo("darwin", "macOS", "14.6"), networkInterfaces: interfaces },
    net: { open: openOnLoopback },
  });
}

/** A Windows 10 front-desk PC without BitLocker, its commands answered from public captures (FIXTURES.md). */
export function win32Persona(): FakeHost {
  return createFakeHost({
    platform: "win32",
    isPrivileged: true,
    commands: {
      "manage-bde -status": fixture("disk_encryption/fixtures/win32-manage-bde-status.txt"),
      "net localgroup Administrators": fixture("access_control/fixtures/win32-net-localgroup-administrators.txt"),
      "net accounts": fixture("access_control/fixtures/win32-net-accounts.txt"),
      "arp -a": fixture("discovery/fixtures/win32-arp-a.txt"),
      // Only the 32-bit uninstall key has a public capture; the 64-bit query is left unanswered (a failed read).
      "reg query HKLM\\SOFTWARE\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall /s": fixture(
        "asset_inventory/fixtures/win32-reg-query-uninstall-wow6432node.txt",
      ),
      "wmic qfe get Caption,Description,HotFixID,InstalledOn": fixture("patches/fixtures/win32-wmic-qfe.txt"),
      "reg query HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU": fixture(
        "patches/fixtures/win32-reg-query-wu-au.txt",
      ),
      "dsregcmd /status": fixture("mfa/fixtures/win32-dsregcmd-status-unjoined.txt"),
      // Bitdefender registered and on; Defender's own status as Microsoft's documentation prints it.
      "powershell -NoProfile -NonInteractive -Command Get-MpComputerStatus": fixture(
        "patches/fixtures/win32-get-mpcomputerstatus.txt",
      ),
      "powershell -NoProfile -NonInteractive -Command Get-CimInstance -Namespace root/SecurityCenter2 -ClassName AntiVirusProduct":
        fixture("patches/fixtures/win32-securitycenter2-antivirusproduct.txt"),
      "w32tm /query /status": fixture("access_control/fixtures/win32-w32tm-query-status-unsynced.txt"),
      "auditpol /get /category:*": fixture("access_control/fixtures/win32-auditpol-get-category-all.txt"),
      // Stock sizes (Security 20 MB, Application 2 MB). No capture of `wevtutil gl System` was found: left unanswered.
      "wevtutil gl Security": fixture("access_control/fixtures/win32-wevtutil-gl-security.txt"),
      "wevtutil gl Application": fixture("access_control/fixtures/win32-wevtutil-gl-application.txt"),
      "wbadmin get versions": fixture("backups/fixtures/win32-wbadmin-get-versions.txt"),
      "netsh advfirewall show allprofiles": fixture("segmentation/fixtures/win32-netsh-advfirewall-allprofiles.txt"),
      // The capture is of `netstat -anop TCP`; `netstat -ano` prints the same TCP rows (plus UDP rows, skipped).
      "netstat -ano": fixture("ports/fixtures/win32-netstat-anop-tcp.txt"),
    },
    sysinfo: { osInfo: osInfo("Windows", "Microsoft Windows 10 Pro", "10.0.19045"), networkInterfaces: interfaces },
    net: { open: ["127.0.0.1:3389", "127.0.0.1:445"] },
    // The day after the wbadmin capture's backup, so that backup counts as recent.
    now: new Date("2026-07-01T12:00:00Z"),
  });
}
