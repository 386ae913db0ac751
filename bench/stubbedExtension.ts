/**
 * The real extension (its TypeScript sources through tsx) activated in this process with `vscode` answered by
 * bench/vscodeStub.ts, as bench/idleWakeups.ts does — but with what a window reload keeps: one global storage
 * directory and Map-backed global and workspace mementos shared by every instance, so a second `activate()` finds
 * what the first one wrote. The Transcript view provider the extension registers is kept, so a bench can resolve it
 * with a webview of its own (bench/benchWebviewView.ts); warnings and errors of the log are kept to be reported.
 */
import Module from 'node:module';
import { join, resolve } from 'node:path';
import type { SwitchboardApi } from '../extension/extension';
import type { SwitchboardTestHooks } from '../extension/switchboardTestHooks';
import { TEST_HOOKS_COMMAND } from '../extension/switchboardTestHooks';
import type { StubRecord } from './vscodeStub';
import { createVscodeStub } from './vscodeStub';

const ROOT = resolve(__dirname, '..');

interface ModuleLoader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

interface Memento {
  get<T>(key: string, fallback?: T): T | undefined;
  update(key: string, value: unknown): Promise<void>;
  keys(): readonly string[];
}

function memento(): Memento {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string, fallback?: T) => (values.has(key) ? (values.get(key) as T) : fallback),
    update: (key, value) => {
      if (value === undefined) {
        values.delete(key);
      } else {
        values.set(key, value);
      }
      return Promise.resolve();
    },
    keys: () => [...values.keys()],
  };
}

/** What the extension registers with `registerWebviewViewProvider` (the part used here). */
export interface WebviewViewProvider {
  resolveWebviewView(view: unknown): void;
}

/** One activated instance: its API, and the disposables VS Code would dispose on deactivation. */
export interface ExtensionInstance {
  readonly api: SwitchboardApi;
  /** The services behind the API (activated as a test host is: `ExtensionMode.Test` hands them out). */
  readonly hooks: SwitchboardTestHooks;
  /** The Transcript view's provider this instance registered. */
  readonly transcriptView: WebviewViewProvider;
  /** Deactivates as a window reload does, after every connection's storage is flushed and closed. */
  deactivate(): Promise<void>;
}

/** The extension's home across instances: its storage, mementos and log. */
export class StubbedExtension {
  /** Warnings and errors the extension logged, in order. */
  readonly problems: string[] = [];
  private readonly stub: Record<string, unknown>;
  private readonly handlers: StubRecord['handlers'];
  private readonly globalState = memento();
  private readonly workspaceState = memento();
  private lastViewProvider: WebviewViewProvider | undefined;
  private module: { activate(context: unknown): Promise<SwitchboardApi | undefined>; deactivate(): Promise<void> } | undefined;

  constructor(
    private readonly storageDir: string,
    configuration: Readonly<Record<string, unknown>>,
  ) {
    const { api, record } = createVscodeStub({ configuration });
    this.stub = api;
    this.handlers = record.handlers;
    // Members the stub lacks that run-time code reaches once runs exist (`instanceof`, enum values).
    api.TabInputTextDiff ??= class TabInputTextDiff {};
    api.ConfigurationTarget ??= { Global: 1, Workspace: 2, WorkspaceFolder: 3 };
    api.QuickPickItemKind ??= { Separator: -1, Default: 0 };
    const window = api.window as Record<string, unknown>;
    const problems = this.problems;
    const logLine = (level: string) => (message: string) => {
      problems.push(`${level}: ${message}`);
    };
    // Unknown members (replace, clear, …) answer no-ops, as in the stub's own channel.
    const channel = new Proxy(
      { logLevel: 3, onDidChangeLogLevel: () => ({ dispose: () => undefined }), warn: logLine('warn'), error: logLine('error') },
      { get: (target, property) => (property in target ? (target as Record<string | symbol, unknown>)[property] : () => undefined) },
    );
    window.createOutputChannel = () => channel;
    // No editor tabs open (the stub's tab groups lack the active group the approval diffs read).
    const noTabs = { all: [], activeTabGroup: { tabs: [], activeTab: undefined }, onDidChangeTabs: () => ({ dispose: () => undefined }), onDidChangeTabGroups: () => ({ dispose: () => undefined }) };
    window.tabGroups = noTabs;
    window.registerWebviewViewProvider = (id: string, provider: WebviewViewProvider) => {
      if (id === 'agentSwitchboard.transcript') {
        this.lastViewProvider = provider;
      }
      return { dispose: () => undefined };
    };
  }

  /** Activates a fresh instance on the shared storage (the modules stay loaded: one process, as documented). */
  async activate(): Promise<ExtensionInstance> {
    if (!this.module) {
      const loader = Module as unknown as ModuleLoader;
      const originalLoad = loader._load;
      const stub = this.stub;
      // Kept for the process's life: the extension's modules are loaded once and hold this `vscode`.
      loader._load = function load(request: string, parent: unknown, isMain: boolean): unknown {
        return request === 'vscode' ? stub : originalLoad.call(this, request, parent, isMain);
      };
      this.module = (await import(join(ROOT, 'extension', 'extension.ts'))) as NonNullable<StubbedExtension['module']>;
    }
    const Uri = this.stub.Uri as { file(p: string): unknown };
    const subscriptions: { dispose(): unknown }[] = [];
    this.lastViewProvider = undefined;
    const extensionModule = this.module;
    const api = await extensionModule.activate({
      subscriptions,
      extensionMode: (this.stub.ExtensionMode as { Test: number }).Test,
      extensionUri: Uri.file(ROOT),
      extensionPath: ROOT,
      globalStorageUri: Uri.file(this.storageDir),
      storageUri: undefined,
      secrets: { get: () => Promise.resolve(undefined), store: () => Promise.resolve(), delete: () => Promise.resolve(), onDidChange: () => ({ dispose: () => undefined }) },
      extension: { packageJSON: { version: 'bench' } },
      globalState: this.globalState,
      workspaceState: this.workspaceState,
    });
    const transcriptView = this.lastViewProvider as WebviewViewProvider | undefined;
    const hooks = this.handlers.get(TEST_HOOKS_COMMAND)?.() as SwitchboardTestHooks | undefined;
    if (!api || !transcriptView || !hooks) {
      throw new Error(`activate() failed under the stub: ${this.problems.join(' | ')}`);
    }
    return {
      api,
      hooks,
      transcriptView,
      deactivate: async () => {
        // As VS Code does: the module's deactivate() (which closes the connections) awaited, then the subscriptions
        // disposed (which do not wait). The drafts are flushed here too: the next instance must find them stored.
        await extensionModule.deactivate();
        await api.drafts.flush();
        for (const s of subscriptions) {
          s.dispose();
        }
      },
    };
  }
}
