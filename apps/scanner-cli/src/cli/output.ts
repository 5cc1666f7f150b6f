import { type TerminalWidth, terminalWidth } from "./terminal-width.js";

/** Where a command writes, and how: colour only on a TTY and never when NO_COLOR is set (no-color.org). */
export interface Output {
  out(line: string): void;
  err(line: string): void;
  readonly isTTY: boolean;
  readonly color: boolean;
  /** The width reports are laid out for (COLUMNS, else the terminal's, else a default). */
  readonly width: TerminalWidth;
}

export function createOutput(
  streams: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream },
  env: Readonly<Record<string, string | undefined>>,
): Output {
  const isTTY = Boolean(streams.stdout.isTTY);
  return {
    out: (line) => streams.stdout.write(`${line}\n`),
    err: (line) => streams.stderr.write(`${line}\n`),
    isTTY,
    width: terminalWidth({ isTTY, columns: streams.stdout.columns, env }),
    color: isTTY && !("NO_COLOR" in env && env.NO_COLOR !== "") && env.TERM !== "dumb",
  };
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;
export type Style = keyof typeof CODES;

export function paint(output: Pick<Output, "color">, style: Style, text: string): string {
  return output.color ? `\x1b[${CODES[style]}m${text}\x1b[0m` : text;
}
