/** The width text is laid out for when nothing usable says otherwise: a classic terminal. */
export const DEFAULT_WIDTH = 80;
/** Narrower than this, a four-column table cannot be read; such a report (or a terminal reporting 0) gets the default. */
export const MIN_WIDTH = 60;

export interface TerminalWidth {
  /** The width the report is laid out for. */
  readonly width: number;
  /**
   * Whether a terminal reported it: a live view that redraws lines in place must know the real width (it counts the
   * rows each line takes), so it runs only then.
   */
  readonly reported: boolean;
}

const usable = (n: number | undefined): n is number => n !== undefined && Number.isInteger(n) && n >= MIN_WIDTH;

/**
 * The width to lay out for (pure): `COLUMNS` when set to a usable number (the user's own say, also for a pipe or a
 * log), else the terminal's reported width, else {@link DEFAULT_WIDTH} — also when a terminal reports 0 (serial
 * consoles, `script`, some CI runners) or a width too narrow to read.
 */
export function terminalWidth(o: {
  readonly isTTY: boolean;
  readonly columns: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}): TerminalWidth {
  const reported = o.isTTY && usable(o.columns);
  const fromEnv = /^\d{1,4}$/.test(o.env.COLUMNS ?? "") ? Number(o.env.COLUMNS) : undefined;
  if (usable(fromEnv)) return { width: fromEnv, reported };
  return { width: reported ? o.columns! : DEFAULT_WIDTH, reported };
}

/**
 * Text wrapped at word boundaries into lines of at most `width` characters (the lines after the first at most
 * `restWidth`); a word longer than a line is broken, never dropped, so nothing of the text is lost (pure).
 */
export function wrapText(text: string, width: number, restWidth = width): string[] {
  const lines: string[] = [];
  const limit = () => Math.max(1, lines.length === 0 ? width : restWidth);
  let line = "";
  for (let word of text.replace(/\s+/g, " ").trim().split(" ")) {
    if (word === "") continue;
    if (line !== "" && line.length + 1 + word.length <= limit()) {
      line += ` ${word}`;
      continue;
    }
    if (line !== "") lines.push(line);
    while (word.length > limit()) {
      const at = limit();
      lines.push(word.slice(0, at));
      word = word.slice(at);
    }
    line = word;
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/** One line of text wrapped to `width`, keeping its own indent; continuation lines are indented `hang` more. */
export function wrapLine(text: string, width: number, hang = 2): string[] {
  const indent = /^ */.exec(text)![0];
  const pad = " ".repeat(indent.length + hang);
  return wrapText(text, width - indent.length, width - pad.length).map((l, i) => (i === 0 ? indent : pad) + l);
}
