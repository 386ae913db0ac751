/**
 * A tool call's row as ACP agents build it over several updates. A `tool_call` often starts bare (claude-agent-acp:
 * title "Edit", rawInput `{}`, while the model still streams the input) and `tool_call_update`s fill in the title,
 * kind, input, locations and content: every field a later update carries replaces the row's, so the row shows the
 * latest. The output is the content's text; when an update has no content but a `rawOutput` (codex-acp ends a
 * command with `{stdout, stderr, aggregated_output, exit_code, …}` and nothing else), that is the output. Output an
 * agent wraps in one markdown fence (codex-acp streams command output as "```sh\n…\n```") is shown without it. A
 * terminal in the content (a command the client runs for the agent: acpTerminals.ts) is not text: the row links to
 * it, and keeps the link when a later update's content no longer names it.
 */
import type { ContentBlock, ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';

/** What a row shows of a tool call so far. */
export interface AcpToolRow {
  title: string;
  kind?: ToolKind;
  rawInput?: unknown;
  locations: readonly ToolCallLocation[];
  output: string;
  /** The latest diffs it carried: a permission request that comes without them (codex-acp) is shown with these. */
  diffs: readonly Extract<ToolCallContent, { type: 'diff' }>[];
  /** The ids of the terminals its content named, in order. */
  terminals: readonly string[];
  /** The display terminal of a command the agent runs itself (`_meta.terminal_info`: acpCommandReports.ts). */
  shownTerminal?: string;
  /** Where that command runs, as the agent said. */
  shownCwd?: string | undefined;
}

/** The fields of a `tool_call` or `tool_call_update` a row takes (absent or null: not sent). */
export interface AcpToolFields {
  readonly title?: string | null;
  readonly kind?: ToolKind | null;
  readonly rawInput?: unknown;
  readonly locations?: readonly ToolCallLocation[] | null;
  readonly content?: readonly ToolCallContent[] | null;
  readonly rawOutput?: unknown;
}

/** The text of a content block as markdown (links for resources; other media named, not shown). */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.title ?? block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    case 'image':
      return '[image]';
    case 'audio':
      return '[audio]';
    default:
      return '';
  }
}

/** The inside of one markdown fence that encloses the whole text (```lang … ```), or the text as it is. */
export function withoutFence(text: string): string {
  const fenced = /^\s*(`{3,}|~{3,})[^\n`]*\n([\s\S]*?)\n?\1[ \t]*\n?\s*$/.exec(text);
  // Only one fence: an inner line that opens another means the text is more than one block.
  return fenced && !new RegExp(`^${fenced[1]}`, 'm').test(fenced[2]!) ? fenced[2]! : text;
}

/** A tool call's content as plain output text (diffs summarised: the approval and the change set show them). */
export function toolContentText(content: readonly ToolCallContent[] | null | undefined): string {
  return (content ?? [])
    .map((c) => (c.type === 'content' ? withoutFence(blockText(c.content)) : c.type === 'diff' ? `Edit ${c.path}` : ''))
    .filter((t) => t !== '')
    .join('\n');
}

function field(record: Record<string, unknown>, ...keys: string[]): unknown {
  for (const key of keys) {
    if (record[key] !== undefined && record[key] !== null) {
      return record[key];
    }
  }
  return undefined;
}

/** A `rawOutput` as text: a command's output and exit code when it looks like one, else its JSON. */
export function rawOutputText(raw: unknown): string {
  if (raw === undefined || raw === null) {
    return '';
  }
  if (typeof raw === 'string') {
    return withoutFence(raw);
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return JSON.stringify(raw);
  }
  const record = raw as Record<string, unknown>;
  const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/\n+$/, '') : '');
  const aggregated = text(field(record, 'aggregated_output', 'aggregatedOutput', 'output'));
  const streams = aggregated !== '' ? [aggregated] : [text(record.stdout), text(record.stderr)].filter((s) => s !== '');
  const exit = field(record, 'exit_code', 'exitCode');
  const parts = [...streams, ...(typeof exit === 'number' ? [`exit code ${exit}`] : [])];
  return parts.length > 0 ? parts.join('\n') : JSON.stringify(raw);
}

function hasKeys(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
}

/** What the row shows as input: the agent's input once it has one (an empty `{}` is not one yet), else kind and places. */
export function rowInput(row: AcpToolRow): unknown {
  return hasKeys(row.rawInput) ? row.rawInput : { kind: row.kind, locations: row.locations };
}

/** A new row from a `tool_call`. */
export function newToolRow(fields: AcpToolFields & { readonly title: string }): AcpToolRow {
  const row: AcpToolRow = { title: fields.title, locations: [], output: '', diffs: [], terminals: [] };
  mergeToolFields(row, fields);
  return row;
}

/** Takes what an update carries into the row; true when the title or input shown changed. */
export function mergeToolFields(row: AcpToolRow, fields: AcpToolFields): boolean {
  const before = JSON.stringify([row.title, rowInput(row)]);
  if (fields.title) {
    row.title = fields.title;
  }
  if (fields.kind) {
    row.kind = fields.kind;
  }
  if (hasKeys(fields.rawInput)) {
    row.rawInput = fields.rawInput;
  }
  if (fields.locations && fields.locations.length > 0) {
    row.locations = fields.locations;
  }
  const diffs = (fields.content ?? []).filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff');
  if (diffs.length > 0) {
    row.diffs = diffs;
  }
  const content = toolContentText(fields.content);
  const raw = rawOutputText(fields.rawOutput);
  if (content !== '') {
    row.output = content;
  } else if (raw !== '') {
    row.output = raw;
  }
  return JSON.stringify([row.title, rowInput(row)]) !== before;
}

/** Takes the terminals an update's content names into the row; true when it names one the row did not link yet. */
export function takeTerminals(row: AcpToolRow, content: readonly ToolCallContent[] | null | undefined): boolean {
  const added = (content ?? []).flatMap((c) => (c.type === 'terminal' && !row.terminals.includes(c.terminalId) ? [c.terminalId] : []));
  row.terminals = [...row.terminals, ...new Set(added)];
  return added.length > 0;
}
