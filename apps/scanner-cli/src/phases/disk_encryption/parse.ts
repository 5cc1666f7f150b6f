import { z } from "zod";

/** A fixed volume and whether its data is encrypted at rest. */
export interface VolumeEncryption {
  readonly volume: string;
  readonly mount: string;
  readonly encrypted: boolean;
  /** How: `luks`, `bitlocker`, `filevault`; or what is missing (`none`, `suspended`). */
  readonly method: string;
}

interface LsblkNode {
  name: string;
  type: string;
  fstype: string | null;
  mountpoint: string | null;
  rm: boolean;
  children?: LsblkNode[];
}

const LsblkNodeSchema: z.ZodType<LsblkNode> = z.lazy(() =>
  z.object({
    name: z.string(),
    type: z.string(),
    fstype: z.string().nullable().default(null),
    mountpoint: z.string().nullable().default(null),
    rm: z.union([z.boolean(), z.string().transform((s) => s === "1" || s === "true")]).default(false),
    children: z.array(LsblkNodeSchema).optional(),
  }),
);
const LsblkSchema = z.object({ blockdevices: z.array(LsblkNodeSchema) });

/** Mounts that hold no user data: the EFI system partition and /boot are never encrypted by LUKS setups. */
const NO_DATA_MOUNTS = new Set(["/boot", "/boot/efi", "/efi", "[SWAP]"]);

/**
 * `lsblk -J -b -o NAME,TYPE,FSTYPE,MOUNTPOINT,SIZE,RM,RO`: every mounted filesystem on a fixed device, encrypted
 * when a `crypt` (dm-crypt/LUKS) device sits between it and the disk. Null when the JSON is not lsblk's.
 */
export function parseLsblkVolumes(json: string): VolumeEncryption[] | null {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = LsblkSchema.safeParse(data);
  if (!parsed.success) return null;
  const out: VolumeEncryption[] = [];
  const visit = (node: LsblkNode, underCrypt: boolean, removable: boolean) => {
    const crypt = underCrypt || node.type === "crypt";
    const rm = removable || node.rm;
    const mount = node.mountpoint;
    if (mount && !rm && !NO_DATA_MOUNTS.has(mount) && node.type !== "rom") {
      out.push({ volume: node.name, mount, encrypted: crypt, method: crypt ? "luks" : "none" });
    }
    for (const child of node.children ?? []) visit(child, crypt, rm);
  };
  for (const device of parsed.data.blockdevices) visit(device, false, false);
  return out;
}

/**
 * `manage-bde -status` (English). A volume counts as encrypted when fully encrypted with protection on;
 * encrypted with protection off is `suspended` (the key sits in clear on the disk). Removable volumes are skipped.
 */
export function parseManageBdeStatus(text: string): VolumeEncryption[] {
  const out: VolumeEncryption[] = [];
  for (const block of text.split(/\r?\n(?=Volume )/)) {
    const head = /^Volume (\S+)/.exec(block);
    if (!head || /\[Removable/i.test(block)) continue;
    const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.+?)\\s*$`, "mi").exec(block)?.[1] ?? "";
    const conversion = field("Conversion Status");
    const protection = field("Protection Status");
    const fully = /^Fully Encrypted|^Used Space Only Encrypted/i.test(conversion);
    const on = /^Protection On/i.test(protection);
    const method = fully && on ? "bitlocker" : fully ? "suspended" : "none";
    out.push({ volume: head[1]!, mount: head[1]!, encrypted: fully && on, method });
  }
  return out;
}

/** `fdesetup status`: FileVault protects the startup volume when the first line says it is On. */
export function parseFdesetupStatus(text: string): VolumeEncryption[] | null {
  const first = text.trim().split("\n")[0] ?? "";
  if (/^FileVault is On\./.test(first))
    return [{ volume: "startup", mount: "/", encrypted: true, method: "filevault" }];
  if (/^FileVault is Off\./.test(first)) return [{ volume: "startup", mount: "/", encrypted: false, method: "none" }];
  return null;
}
