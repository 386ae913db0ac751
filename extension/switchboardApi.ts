/**
 * The object `activate` returns (extension.ts) to any extension that asks for it: read-only views of the runs, the
 * connections' profiles, the selection and the board, and the lists the extension shows. Nothing in it decides an
 * approval, connects, writes a file, changes the model or answers a question the person is asked: those stay with
 * the person (the test hooks, switchboardTestHooks.ts, are a test host's only). `publicApi` builds it frozen, so no
 * member can be replaced either.
 */
import type { ConnectionManager } from './drivers/connectionManager';
import type { RunStore } from './model/runStore';
import type { AgentTerminalInfo, AgentTerminals } from './ui/agentTerminals/agentTerminals';
import type { RunBoard } from './ui/board/runBoard';
import type { DraftStore } from './ui/draftStore';
import type { RunSelection } from './ui/runSelection';
import type { TranscriptPanelInfo, TranscriptTabs } from './ui/transcript/transcriptTabs';

/** What `activate` returns: used by the integration tests, and by anyone automating the extension. */
export interface SwitchboardApi {
  /** The runs, connections, approvals and change sets as the UI shows them, and each run's transcript. */
  readonly store: Pick<RunStore, 'state' | 'transcript' | 'onDidChange' | 'onDidPatch'>;
  /** Each connection's profile and where it was defined. */
  readonly connections: Pick<ConnectionManager, 'profile' | 'originOf'>;
  /** The run the transcript shows. */
  readonly selection: Pick<RunSelection, 'runKey' | 'onDidChange'>;
  /** The "Runs" board's groups. */
  readonly board: { readonly provider: Pick<RunBoard['provider'], 'snapshot' | 'groupOf'> };
  /** Reads the connection settings again (also done automatically when they change). */
  reloadProfiles(): Promise<void>;
  /** Waits until the protocol trace has flushed its pending lines. */
  flushTrace(): Promise<void>;
  /** The transcripts open in editor tabs. */
  readonly transcriptTabs: { list(): TranscriptPanelInfo[] };
  /** The editor terminals showing commands agents ran. */
  readonly agentTerminals: { list(): AgentTerminalInfo[] };
  /** The composer drafts the host keeps for every run; `flush` resolves once they are in the workspace state. */
  readonly drafts: { get(runKey: string): string; flush(): Promise<void> };
}

export interface PublicApiSources {
  readonly store: RunStore;
  readonly connections: ConnectionManager;
  readonly selection: RunSelection;
  readonly board: RunBoard;
  readonly transcriptTabs: TranscriptTabs;
  readonly terminals: AgentTerminals;
  readonly drafts: DraftStore;
  reloadProfiles(): Promise<void>;
  flushTrace(): Promise<void>;
}

/** A deep copy that cannot be changed: what the API hands out of a profile is not the one the connection uses. */
function frozenCopy<T>(value: T): T {
  const freeze = (v: unknown): void => {
    if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
      Object.freeze(v);
      Object.values(v).forEach(freeze);
    }
  };
  const copy = structuredClone(value);
  freeze(copy);
  return copy;
}

/** The API as frozen views: each member reads or waits, and none hands out the service behind it. */
export function publicApi(from: PublicApiSources): SwitchboardApi {
  const { store, connections, selection, board, transcriptTabs, terminals, drafts } = from;
  return Object.freeze({
    store: Object.freeze({
      get state() {
        return store.state;
      },
      transcript: (runKey: string) => store.transcript(runKey),
      onDidChange: store.onDidChange,
      onDidPatch: store.onDidPatch,
    }),
    connections: Object.freeze({ profile: (id: string) => frozenCopy(connections.profile(id)), originOf: (id: string) => connections.originOf(id) }),
    selection: Object.freeze({
      get runKey() {
        return selection.runKey;
      },
      onDidChange: selection.onDidChange,
    }),
    board: Object.freeze({ provider: Object.freeze({ snapshot: () => board.provider.snapshot(), groupOf: (runKey: string) => board.provider.groupOf(runKey) }) }),
    reloadProfiles: () => from.reloadProfiles(),
    flushTrace: () => from.flushTrace(),
    transcriptTabs: Object.freeze({ list: () => transcriptTabs.list() }),
    agentTerminals: Object.freeze({ list: () => terminals.list() }),
    drafts: Object.freeze({ get: (runKey: string) => drafts.get(runKey), flush: () => drafts.flush() }),
  });
}
