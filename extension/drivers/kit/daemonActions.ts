/**
 * Daemon features declared as data. A daemon's own actions (AgencyProxy's *Take Over Run*, SCV's *Pause Queue*, a
 * hive agent's *Restart*, …) are described here once — id, title, icon, what they apply to and when, what they ask
 * the user — and the UI builds everything from the declarations: the palette commands, the tree's context menus
 * (through `actionContextFlags`), the transcript header's buttons, the quick picks and confirmations, the documents
 * and messages that show a result. The driver only carries an action out (`Driver.performAction`). So `extension/ui`
 * never names a concrete driver class or branches on a protocol name, and a new daemon adds its features without
 * touching the UI. `package.json` stays what VS Code reads; a unit test checks that it and these declarations agree.
 */
import type { Capability, ConnectionInfo, RunInfo } from '../../model/modelTypes';
import type { RunState } from '../../protocol/transcriptTypes';
import { isTerminalRunState } from '../../protocol/transcriptTypes';

/** What an action acts on: a daemon connection, or one run (a session, an agent) of it. */
export type ActionScope = 'connection' | 'run';

/**
 * When an action is offered. Every condition given must hold. `facts` are what only the driver knows about a run or
 * its connection (a hive's manager run, an A3S run stranded by a harness restart); it reports them in `actionFacts`.
 */
export interface ActionWhen {
  /** The connection must be connected (default true). */
  readonly connected?: boolean;
  /** The connection must report every one of these capabilities. */
  readonly capabilities?: readonly Capability[];
  /** Run scope: the run's state is one of these. */
  readonly runStates?: readonly RunState[];
  /** Run scope: the run's state is none of these. */
  readonly notRunStates?: readonly RunState[];
  /** Run scope: the run is still going (not terminal, not stopped) — `true` — or has ended — `false`. */
  readonly active?: boolean;
  /** Run scope: the SCV-style queue is paused (`true`) or not (`false`). */
  readonly queuePaused?: boolean;
  /** Facts the driver reports that must all be present… */
  readonly facts?: readonly string[];
  /** …and ones that must be absent. */
  readonly notFacts?: readonly string[];
}

export interface ActionChoice {
  /** The answer this choice gives. */
  readonly value: string;
  readonly label: string;
  readonly description?: string;
  readonly detail?: string;
}

/**
 * One thing an action asks before it runs. Texts may use `{title}` (the run's title), `{runId}` and `{connection}`
 * (the connection's name), and `{answer.<name>}` for an earlier answer. An automation caller (a test, a keybinding
 * with args) answers by name in the command's second argument and is never asked.
 */
export type ActionInput =
  | {
      readonly kind: 'text';
      readonly name: string;
      readonly title?: string;
      readonly prompt: string;
      /** The text the box starts with. */
      readonly value?: string;
      /** An empty answer is allowed (otherwise it cancels the action). */
      readonly optional?: boolean;
      /** A secret (an API key): typed hidden, never shown back or logged. */
      readonly secret?: boolean;
      /** `positiveInt`: a whole number ≥ 1 (or empty when optional); a pattern: the whole answer matches it. */
      readonly validate?: 'positiveInt' | { readonly pattern: string; readonly message: string };
    }
  | {
      readonly kind: 'pick';
      readonly name: string;
      readonly title?: string;
      readonly placeHolder: string;
      readonly choices: readonly ActionChoice[];
      /** Several may be picked (the answer is a list; none picked is a valid answer). */
      readonly many?: boolean;
    }
  | {
      /** A modal yes/no. Automation skips every confirmation with `{ confirmed: true }` (or `true`). */
      readonly kind: 'confirm';
      readonly name: string;
      readonly message: string;
      readonly detail: string;
      readonly button: string;
      /** Only asked when an earlier answer has this value. */
      readonly onlyIf?: { readonly name: string; readonly equals: string };
    };

/** The answers so far, by input name (automation passes them directly). */
export type ActionAnswers = Readonly<Record<string, string | number | boolean | readonly string[] | undefined>>;

export interface ActionTarget {
  readonly connectionId: string;
  /** Run scope: the run. */
  readonly runId?: string;
}

/** What a performed action gives back for the UI to show. */
export type ActionResult =
  /** Done. `status` goes to the status bar briefly, `message` to a notification; `value` is the command's result. */
  | { readonly kind: 'done'; readonly status?: string; readonly message?: string; readonly value?: unknown }
  /** Nothing was done, and the user should know why (not an error). The command resolves `false`. */
  | { readonly kind: 'declined'; readonly message: string }
  /** Open this run's transcript (a new run or session); the command resolves with its run key. */
  | { readonly kind: 'openRun'; readonly runId: string; readonly message?: string }
  /**
   * A read-only document; *Refresh* in its editor title performs the action again with the same answers. `preview`:
   * markdown shown rendered (the markdown preview) rather than as text; `summary`: short markdown for the action's
   * status bar tooltip (see `DaemonAction.statusBar`).
   */
  | {
      readonly kind: 'document';
      readonly name: string;
      readonly language: 'json' | 'log' | 'markdown' | 'plaintext';
      readonly content: string;
      readonly preview?: boolean;
      readonly summary?: string;
    }
  /** Ask this, then perform the action again with `answers` added (e.g. "end the live session first?"). */
  | { readonly kind: 'confirmFirst'; readonly message: string; readonly detail: string; readonly button: string; readonly answers: ActionAnswers };

export interface DaemonAction {
  /** The VS Code command id (`agentSwitchboard.<daemon>.<verb>`), also the action's id towards the driver. */
  readonly command: string;
  /** The palette title (package.json's `title`; the category "Agent Switchboard" is added there). */
  readonly title: string;
  /** A codicon id for menus and the transcript header (package.json's `icon` is `$(<icon>)`). */
  readonly icon?: string;
  readonly scope: ActionScope;
  readonly when?: ActionWhen;
  /** The quick pick's placeholder when the target has to be chosen. */
  readonly pickTarget: string;
  /** Asked in order before `performAction`; the driver may ask more (`nextActionInput`). */
  readonly inputs?: readonly ActionInput[];
  /** A progress notification's title while the action runs (long daemon operations). */
  readonly progress?: string;
  /** Prefix of the error notification when the action fails, e.g. "The session was not cleared". */
  readonly failure: string;
  /**
   * Where the Connections tree shows it (package.json's `view/item/context` entries are checked against these). A
   * connection action may also sit on its runs' rows (`item: 'run'`), acting on the run's connection.
   */
  readonly menus?: readonly ActionMenu[];
  /** Also a button in the transcript header of a run it applies to (run scope). */
  readonly headerButton?: boolean;
  /**
   * Run scope: offer the action in a notification when a run of this daemon enters `runBecomes` in this window
   * (not when it is restored that way after a reload). `message` may use the template placeholders.
   */
  readonly offer?: { readonly runBecomes: RunState; readonly message: string };
  /**
   * Connection scope, a `document` action with a `summary`: a status bar item per connection where it applies, whose
   * tooltip is the summary and whose click performs the action. Read again when the connection connects, when one
   * of its runs ends and whenever the action runs — never on a timer.
   */
  readonly statusBar?: { readonly text: string; readonly name: string };
}

export interface ActionMenu {
  readonly item: ActionScope;
  /** The menu group, e.g. `3_daemon@1`; `inline@N` puts it on the row itself. */
  readonly group: string;
  /** Only on rows of runs in these states (beyond the action's own `when`). */
  readonly runStates?: readonly RunState[];
}

/** What enablement is evaluated on: plain model data plus the driver's facts. */
export interface ActionSubject {
  readonly connection: ConnectionInfo;
  readonly run?: RunInfo;
  readonly facts: readonly string[];
}

/** Whether `action` applies to `subject` (pure: the tree, the header, the pickers and the tests share it). */
export function actionApplies(action: DaemonAction, subject: ActionSubject): boolean {
  const when = action.when ?? {};
  const { connection, run, facts } = subject;
  if ((action.scope === 'run') !== (run !== undefined)) {
    return false;
  }
  if ((when.connected ?? true) && connection.state.kind !== 'connected') {
    return false;
  }
  if (when.capabilities && !when.capabilities.every((c) => connection.capabilities.includes(c))) {
    return false;
  }
  if (run) {
    if (when.runStates && !when.runStates.includes(run.state)) {
      return false;
    }
    if (when.notRunStates?.includes(run.state)) {
      return false;
    }
    if (when.active !== undefined && when.active === (isTerminalRunState(run.state) || run.state === 'stopped')) {
      return false;
    }
    if (when.queuePaused !== undefined && when.queuePaused !== (run.queuePaused === true)) {
      return false;
    }
  }
  if (when.facts && !when.facts.every((f) => facts.includes(f))) {
    return false;
  }
  return !(when.notFacts ?? []).some((f) => facts.includes(f));
}

/**
 * The token a tree item's `contextValue` carries for an action that applies to it; package.json's menu `when`
 * clauses match it (`viewItem =~ /\+action:agentSwitchboard\.scv\.pauseQueue\b/`), so the menus follow the same
 * enablement as the palette.
 */
export function actionContextFlag(action: DaemonAction): string {
  return `+action:${action.command}`;
}

/** The `when` clause package.json must use for one of an action's menu entries (checked by a unit test). */
export function actionMenuWhen(action: DaemonAction, menu: ActionMenu): string {
  const states = menu.item === 'run' && menu.runStates ? `(${menu.runStates.join('|')})` : '';
  return `view == agentSwitchboard.connections && viewItem =~ /^${menu.item}\\.${states}.*\\+action:${action.command.replace(/\./g, '\\.')}\\b/`;
}

/** Something a driver offers on its own (SCV's leftover prompts): one notification per id. */
export interface ActionOffer {
  readonly id: string;
  readonly message: string;
  readonly level: 'info' | 'warning';
  /** Each button performs a declared action (by command id) on `target`, with `answers` pre-filled. */
  readonly choices: readonly { readonly label: string; readonly command: string; readonly target: ActionTarget; readonly answers?: ActionAnswers }[];
}
