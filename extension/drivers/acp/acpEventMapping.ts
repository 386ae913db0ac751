/**
 * ACP `session/update` notifications → the run model's events (model/modelActions.ts `RunEvent`) plus the session
 * state the driver keeps beside the transcript (plan, slash commands, mode, config options, title, subagents, messages between sessions). Pure;
 * one `AcpMappingState` per session. Updates the SDK does not know never reach this (its schemas drop them; the line
 * tap still traces them); a known kind with content this version does not render becomes a `raw` item, never an
 * error. Context use and cost go onto the run (no row); notices and compactions are rows.
 */
import type { PlanEntry, SessionConfigOption, ToolCallContent } from '@agentclientprotocol/sdk';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import type { RunEvent } from '../../model/modelActions';
import type { AcpSubagentReport } from './acpSubagents';
import { subagentReportOf } from './acpSubagents';
import type { AcpToolRow } from './acpToolRows';
import { blockText, mergeToolFields, newToolRow, rowInput, takeTerminals } from './acpToolRows';
import type { AcpCommandReport } from './acpCommandReports';
import { commandMetaOf, takeCommandReport } from './acpCommandReports';
import type { AcpSessionMessage, AcpSessionMessages } from './acpSessionMessages';
import { appendSessionMessageChunk, upsertSessionMessage } from './acpSessionMessages';

/** The most characters of a reported command's output a tool row keeps (its last ones; the terminal shows more). */
const MAX_ROW_OUTPUT = 64 * 1024;

export interface AcpMappingState {
  /** The `messageId` of the last chunk: a new one starts a new message. */
  lastMessageId?: string;
  /** The kind of the last chunk (a switch between answer and thinking closes the open one). */
  lastChunk?: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk';
  /** Tool calls seen and not finished, with what their rows show so far. */
  readonly tools: Map<string, AcpToolRow>;
  /** Messages between sessions shown in this one (acpSessionMessages.ts), by their ids. */
  readonly messages: AcpSessionMessages;
}

export function newAcpMappingState(): AcpMappingState {
  return { tools: new Map(), messages: new Map() };
}

/** What an update means besides transcript events. */
export interface AcpSideEffects {
  readonly plan?: readonly PlanEntry[];
  readonly commands?: readonly { readonly name: string; readonly description: string; readonly hint?: string }[];
  readonly modeId?: string;
  readonly configOptions?: readonly SessionConfigOption[];
  readonly title?: string;
  /** The session announced or changed a child session (`subagent_update`). */
  readonly subagent?: AcpSubagentReport;
  /** What a command the agent runs itself showed (`_meta.terminal_*`), for its view. */
  readonly command?: AcpCommandReport;
  /** A message between sessions changed: its row, which names the sessions by their runs' titles, is the driver's. */
  readonly message?: AcpSessionMessage;
  /** A tool call that edits files completed: the paths it named (its diffs, or an edit's locations). */
  readonly edited?: readonly string[];
}

export interface AcpMapped {
  readonly events: readonly RunEvent[];
  readonly effects: AcpSideEffects;
}

function chunk(state: AcpMappingState, kind: NonNullable<AcpMappingState['lastChunk']>, messageId: string | null | undefined, text: string): RunEvent[] {
  const events: RunEvent[] = [];
  const newMessage = (messageId ?? undefined) !== undefined && messageId !== state.lastMessageId && state.lastMessageId !== undefined;
  if (newMessage || (state.lastChunk !== undefined && state.lastChunk !== kind)) {
    events.push({ kind: 'messageBoundary' });
  }
  state.lastChunk = kind;
  state.lastMessageId = messageId ?? state.lastMessageId;
  if (text === '') {
    return events; // agents start blocks with an empty chunk
  }
  if (kind === 'agent_message_chunk') {
    events.push({ kind: 'textDelta', text });
  } else if (kind === 'agent_thought_chunk') {
    events.push({ kind: 'reasoningDelta', text });
  } else {
    events.push({ kind: 'userPrompt', text });
  }
  return events;
}

/** Kinds of tool call whose locations are the files they change (a `read`'s are the files it read). */
const EDITING_KINDS: ReadonlySet<string> = new Set(['edit', 'delete', 'move']);

/**
 * The files a completed call edited, as the agent named them: its diffs' paths, and the locations of an edit,
 * delete or move. A call that failed edited nothing the agent vouches for; a pending call (a proposal) not yet.
 */
export function editedPaths(row: AcpToolRow | undefined): readonly string[] {
  if (!row) {
    return [];
  }
  const paths = [...row.diffs.map((d) => d.path), ...(row.kind !== undefined && EDITING_KINDS.has(row.kind) ? row.locations.map((l) => l.path) : [])];
  return [...new Set(paths.filter((p) => typeof p === 'string' && p !== ''))];
}

/** The side effects of a call that ends now: the files it edited, when it completed. */
function finishedEffects(state: AcpMappingState, callId: string, completed: boolean, effects: AcpSideEffects): AcpSideEffects {
  const edited = completed ? editedPaths(state.tools.get(callId)) : [];
  return edited.length > 0 ? { ...effects, edited } : effects;
}

function toolFinished(state: AcpMappingState, callId: string, ok: boolean): RunEvent {
  const tool = state.tools.get(callId);
  state.tools.delete(callId);
  return { kind: 'toolResult', callId, ok, output: tool?.output ?? '', ...(tool ? { name: tool.title } : {}) };
}

const NOTHING: AcpSideEffects = {};

export function mapAcpUpdate(state: AcpMappingState, update: SessionUpdate): AcpMapped {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk':
      return { events: chunk(state, update.sessionUpdate, update.messageId, blockText(update.content)), effects: NOTHING };
    case 'tool_call': {
      state.lastChunk = undefined;
      const row = newToolRow(update);
      state.tools.set(update.toolCallId, row);
      const command = takeCommandReport(row, commandMetaOf(update._meta), MAX_ROW_OUTPUT);
      const events: RunEvent[] = [
        { kind: 'messageBoundary' },
        { kind: 'toolCall', callId: update.toolCallId, name: row.title, input: rowInput(row), status: update.status === 'pending' ? 'proposed' : 'running' },
      ];
      if (takeTerminals(row, withShown(update.content, command))) {
        events.push({ kind: 'toolTerminals', callId: update.toolCallId, terminalIds: row.terminals });
      }
      let effects: AcpSideEffects = command ? { command } : NOTHING;
      if (update.status === 'completed' || update.status === 'failed') {
        effects = finishedEffects(state, update.toolCallId, update.status === 'completed', effects);
        events.push(toolFinished(state, update.toolCallId, update.status === 'completed'));
      }
      return { events, effects };
    }
    case 'tool_call_update': {
      // A call not seen (or finished already) gets no row of its own from an update: a late update of a finished
      // call must not add a second one. Its end still shows (the model adds a row for a result it did not see).
      const known = state.tools.get(update.toolCallId);
      const row = known ?? newToolRow({ ...update, title: update.title ?? 'tool' });
      state.tools.set(update.toolCallId, row);
      const events: RunEvent[] = [];
      // A later title or input replaces the row's (claude-agent-acp starts a call as "Edit" with input {}).
      if (mergeToolFields(row, update) && known) {
        events.push({ kind: 'toolCall', callId: update.toolCallId, name: row.title, input: rowInput(row) });
      }
      const command = known ? takeCommandReport(row, commandMetaOf(update._meta), MAX_ROW_OUTPUT) : undefined;
      if (takeTerminals(row, withShown(update.content, command)) && known) {
        events.push({ kind: 'toolTerminals', callId: update.toolCallId, terminalIds: row.terminals });
      }
      let effects: AcpSideEffects = command ? { command } : NOTHING;
      if (update.status === 'completed' || update.status === 'failed') {
        effects = finishedEffects(state, update.toolCallId, update.status === 'completed', effects);
        events.push(toolFinished(state, update.toolCallId, update.status === 'completed'));
      } else if (update.status === 'in_progress') {
        events.push({ kind: 'toolStarted', callId: update.toolCallId, name: row.title });
      } else if (!known) {
        state.tools.delete(update.toolCallId);
      }
      return { events, effects };
    }
    case 'plan':
      return { events: [], effects: { plan: update.entries } };
    case 'available_commands_update':
      return {
        events: [],
        effects: {
          commands: update.availableCommands.map((c) => ({
            name: c.name,
            description: c.description,
            ...(c.input && 'hint' in c.input && typeof c.input.hint === 'string' ? { hint: c.input.hint } : {}),
          })),
        },
      };
    case 'current_mode_update':
      return { events: [], effects: { modeId: update.currentModeId } };
    case 'config_option_update':
      return { events: [], effects: { configOptions: update.configOptions } };
    case 'session_info_update':
      return { events: [], effects: update.title ? { title: update.title } : NOTHING };
    case 'usage_update':
      // On the run, replaced in place: Claude Code sends several a turn (the cost on the last).
      return {
        events: [{ kind: 'usage', used: update.used, size: update.size, ...(update.cost ? { cost: { amount: update.cost.amount, currency: update.cost.currency } } : {}) }],
        effects: NOTHING,
      };
    case 'notice': {
      const text = update.description ? `${update.title}: ${update.description}` : update.title;
      return { events: [{ kind: 'notice', text, level: noticeLevel(update.severity) }], effects: NOTHING };
    }
    case 'compaction_update': {
      const summary = update.summary ? update.summary.map(blockText).join('') : undefined;
      return {
        events: [{ kind: 'compaction', compactionId: update.compactionId, status: update.status, ...(summary !== undefined ? { summary } : {}), ...(update.error ? { error: update.error } : {}) }],
        effects: NOTHING,
      };
    }
    case 'compaction_summary_chunk':
      return { events: [{ kind: 'compaction', compactionId: update.compactionId, summaryDelta: blockText(update.content) }], effects: NOTHING };
    case 'subagent_update':
      return { events: [], effects: { subagent: subagentReportOf(update) } };
    case 'session_message':
    case 'session_message_chunk': {
      // Its row goes after what streamed so far; the agent's text after it starts a row of its own.
      state.lastChunk = undefined;
      const message = update.sessionUpdate === 'session_message' ? upsertSessionMessage(state.messages, update) : appendSessionMessageChunk(state.messages, update);
      return { events: [{ kind: 'messageBoundary' }], effects: { message } };
    }
    default:
      // Newer kinds the SDK knows (plan_update): shown as data, never fatal.
      return { events: [{ kind: 'raw', label: String((update as { sessionUpdate: string }).sessionUpdate), data: update }], effects: NOTHING };
  }
}

/** An update's content plus the display terminal of the command it reports, which the row links to as well. */
function withShown(content: readonly ToolCallContent[] | null | undefined, command: AcpCommandReport | undefined): readonly ToolCallContent[] {
  return [...(content ?? []), ...(command ? [{ type: 'terminal' as const, terminalId: command.terminalId }] : [])];
}

/** A notice's severity as a row's level; a severity this version does not know reads as information. */
function noticeLevel(severity: string): 'info' | 'warning' | 'error' {
  return severity === 'warning' || severity === 'error' ? severity : 'info';
}

/** The stop reason of a finished turn, as the line that ends it in the transcript. */
export function stopReasonText(reason: string): string {
  switch (reason) {
    case 'end_turn':
      return 'Turn ended';
    case 'max_tokens':
      return 'Turn stopped: the model reached its token limit';
    case 'max_turn_requests':
      return 'Turn stopped: too many model requests in one turn';
    case 'refusal':
      return 'Turn stopped: the agent refused to go on';
    case 'cancelled':
      return 'Turn cancelled';
    default:
      return `Turn ended (${reason})`;
  }
}
