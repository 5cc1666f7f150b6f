/** Well-known ports whose protocol carries data in cleartext unless wrapped in TLS (ePHI flows, TLS phase). */
export const CLEARTEXT_PORTS: ReadonlyMap<number, string> = new Map([
  [21, "ftp"],
  [23, "telnet"],
  [80, "http"],
  [104, "dicom"],
  [110, "pop3"],
  [143, "imap"],
  [389, "ldap"],
  [2575, "hl7-mllp"],
  [8000, "http"],
  [8080, "http"],
  [11112, "dicom"],
]);
