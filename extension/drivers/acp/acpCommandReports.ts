/**
 * Commands an agent runs itself and reports to a client that shows them (the `terminal_output` extension of Zed,
 * which claude-agent-acp and codex-acp speak when the client advertises `clientCapabilities._meta.terminal_output`):
 * a `tool_call` names the command's display terminal in `_meta.terminal_info` (and in a `{type: "terminal"}`
 * content entry), later updates carry its output in `_meta.terminal_output` / `terminal_output_delta` and its end in
 * `_meta.terminal_exit`. Nothing runs here: this reads what the agent says it ran, as a report for the command's view
 * (acpShownCommands.ts). The `_meta` is the agent's and untrusted: parsed field by field, any part that does not fit is
 * ignored, never an error; text is cut to bounds.
 */
import * as z from 'zod/mini';
import type { AcpToolRow } from './acpToolRows';

/** The longest command line or directory taken from a report (the rest is cut). */
const MAX_LINE = 4096;

const terminalId = z.string().check(z.minLength(1), z.maxLength(256));
const infoSchema = z.object({ terminal_id: terminalId, cwd: z.optional(z.nullable(z.string())) });
const outputSchema = z.object({ terminal_id: terminalId, data: z.string() });
const exitSchema = z.object({
  terminal_id: terminalId,
  exit_code: z.optional(z.nullable(z.int())),
  signal: z.optional(z.nullable(z.string())),
});

/** What an update says of the command's terminal (each part absent when the update has none that fits). */
export interface AcpCommandMeta {
  readonly info?: { readonly terminalId: string; readonly cwd?: string };
  readonly output?: { readonly terminalId: string; readonly data: string };
  readonly exit?: { readonly terminalId: string; readonly exitCode: number | null; readonly signal: string | null };
}

/** What a command's view is told on one update. */
export interface AcpCommandReport {
  readonly terminalId: string;
  /** The command line as the agent gave it in the tool's input, once it did. */
  readonly commandLine?: string;
  readonly cwd?: string;
  /** Output to append (both adapters send chunks in order, appended like Zed does). */
  readonly output?: string;
  readonly exit?: { readonly exitCode: number | null; readonly signal: string | null };
}

function parsed<T>(schema: z.ZodMiniType<T>, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

/** Control characters (escape sequences included) would act on the terminal: a line from the agent shows without them. */
export function plainLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, MAX_LINE);
}

/** The terminal parts of a tool call update's `_meta` (`undefined` when it has none). */
export function commandMetaOf(meta: unknown): AcpCommandMeta | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) {
    return undefined;
  }
  const record = meta as Record<string, unknown>;
  const info = parsed(infoSchema, record.terminal_info);
  // `terminal_output_delta` is what claude-agent-acp sends a background command's later chunks as.
  const output = parsed(outputSchema, record.terminal_output) ?? parsed(outputSchema, record.terminal_output_delta);
  const exit = parsed(exitSchema, record.terminal_exit);
  if (!info && !output && !exit) {
    return undefined;
  }
  return {
    ...(info ? { info: { terminalId: info.terminal_id, ...(info.cwd ? { cwd: plainLine(info.cwd) } : {}) } } : {}),
    ...(output ? { output: { terminalId: output.terminal_id, data: output.data } } : {}),
    ...(exit ? { exit: { terminalId: exit.terminal_id, exitCode: exit.exit_code ?? null, signal: exit.signal ?? null } } : {}),
  };
}

/** The command line in a tool's input: Claude's Bash `{command}`, Codex's `{command: [...]}` or `{cmd}`. */
export function commandLineOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) {
    return undefined;
  }
  const record = rawInput as Record<string, unknown>;
  const command = record.command ?? record.cmd;
  if (typeof command === 'string' && command.trim() !== '') {
    return plainLine(command);
  }
  if (Array.isArray(command) && command.length > 0 && command.every((word) => typeof word === 'string')) {
    return plainLine(command.join(' '));
  }
  return undefined;
}

/** The directory in a tool's input (Codex: `cwd` or `workdir`). */
function cwdOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null) {
    return undefined;
  }
  const record = rawInput as Record<string, unknown>;
  const cwd = record.cwd ?? record.workdir;
  return typeof cwd === 'string' && cwd !== '' ? plainLine(cwd) : undefined;
}

/**
 * Takes an update's terminal `_meta` into the row (the terminal it named; the output also becomes the row's output,
 * as the agent sends it nowhere else to such a client) and says what the command's view is told. Parts for another
 * terminal than the row's are dropped: one tool call shows one command.
 */
export function takeCommandReport(row: AcpToolRow, meta: AcpCommandMeta | undefined, maxRowOutput: number): AcpCommandReport | undefined {
  if (meta?.info && row.shownTerminal === undefined) {
    row.shownTerminal = meta.info.terminalId;
    row.shownCwd = meta.info.cwd;
  }
  const id = row.shownTerminal;
  if (id === undefined) {
    return undefined;
  }
  const output = meta?.output?.terminalId === id && meta.output.data !== '' ? meta.output.data : undefined;
  if (output !== undefined) {
    row.output = `${row.output}${output}`.slice(-maxRowOutput);
  }
  const exit = meta?.exit?.terminalId === id ? meta.exit : undefined;
  const commandLine = commandLineOf(row.rawInput);
  const cwd = row.shownCwd ?? cwdOf(row.rawInput);
  return {
    terminalId: id,
    ...(commandLine !== undefined ? { commandLine } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(output !== undefined ? { output } : {}),
    ...(exit ? { exit: { exitCode: exit.exitCode, signal: exit.signal } } : {}),
  };
}
