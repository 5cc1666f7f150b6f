/**
 * The 100 most frequently open TCP ports, most frequent first, as ranked by the open-frequency column of nmap's
 * nmap-services (nmap 7.93, Debian package nmap-common 7.93+dfsg1-1): the same set as `nmap --top-ports 100`.
 * Provenance and the command that reproduces it: phases/FIXTURES.md.
 */
export const TOP_100_TCP_PORTS: readonly number[] = [
  80, 23, 443, 21, 22, 25, 3389, 110, 445, 139, 143, 53, 135, 3306, 8080, 1723, 111, 995, 993, 5900, 1025, 587, 8888,
  199, 1720, 465, 548, 113, 81, 6001, 10000, 514, 5060, 179, 1026, 2000, 8443, 8000, 32768, 554, 26, 1433, 49152, 2001,
  515, 8008, 49154, 1027, 5666, 646, 5000, 5631, 631, 49153, 8081, 2049, 88, 79, 5800, 106, 2121, 1110, 49155, 6000,
  513, 990, 5357, 427, 49156, 543, 544, 5101, 144, 7, 389, 8009, 3128, 444, 9999, 5009, 7070, 5190, 3000, 5432, 1900,
  3986, 13, 1029, 9, 5051, 6646, 49157, 1028, 873, 1755, 2717, 4899, 9100, 119, 37,
];

/**
 * Ports a clinic network needs checked that the internet-wide ranking misses: DICOM (104, 11112, Orthanc's 4242),
 * HL7 v2 over MLLP (2575), and databases that hold ePHI (Oracle 1521, MongoDB 27017, Redis 6379).
 */
export const HEALTHCARE_TCP_PORTS: readonly number[] = [104, 2575, 11112, 4242, 1521, 27017, 6379];

/** What the ports phase probes unless `--ports` says otherwise. */
export const DEFAULT_SCAN_PORTS: readonly number[] = [...TOP_100_TCP_PORTS, ...HEALTHCARE_TCP_PORTS];
