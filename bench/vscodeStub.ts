/**
 * A minimal `vscode` module for loading dist/extension.js under plain Node: enough of the API for `activate()` to
 * run with no connection profiles, recording what it registers. Unknown members are functions returning a
 * disposable, so an API the stub does not model is counted rather than crashing the measurement.
 */
export interface StubRecord {
  readonly commands: string[];
  /** Each registered command's handler (`executeCommand` runs none: the benches call what they need directly). */
  readonly handlers: Map<string, (...args: unknown[]) => unknown>;
  readonly views: string[];
  readonly other: string[];
}

class Disposable {
  constructor(private readonly fn: () => void = () => undefined) {}
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

class EventEmitter<T> {
  private listeners: ((value: T) => void)[] = [];
  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => (this.listeners = this.listeners.filter((l) => l !== listener)));
  };
  fire(value: T): void {
    this.listeners.forEach((l) => l(value));
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Uri {
  private constructor(readonly scheme: string, readonly path: string, readonly query = '', readonly fragment = '') {}
  get fsPath(): string {
    return this.path;
  }
  static file(path: string): Uri {
    return new Uri('file', path);
  }
  static parse(value: string): Uri {
    const url = new URL(value);
    return new Uri(url.protocol.replace(/:$/, ''), decodeURIComponent(url.pathname), url.search.slice(1), url.hash.slice(1));
  }
  static from(parts: { scheme: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return new Uri(base.scheme, [base.path, ...segments].join('/'));
  }
  with(change: { scheme?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(change.scheme ?? this.scheme, change.path ?? this.path, change.query ?? this.query, change.fragment ?? this.fragment);
  }
  toString(): string {
    return `${this.scheme}://${this.path}`;
  }
}

class TreeItem {
  constructor(
    readonly label: unknown,
    readonly collapsibleState?: number,
  ) {}
}
class ThemeIcon {
  constructor(readonly id: string, readonly color?: unknown) {}
}
class ThemeColor {
  constructor(readonly id: string) {}
}
class MarkdownString {
  constructor(public value = '') {}
  appendMarkdown(text: string): this {
    this.value += text;
    return this;
  }
  appendText(text: string): this {
    this.value += text;
    return this;
  }
}
class Simple {
  constructor(...args: unknown[]) {
    Object.assign(this, { args });
  }
}

/** An object whose unknown members are recorded no-op functions. */
function recording<T extends object>(name: string, known: T, record: StubRecord): T {
  return new Proxy(known, {
    get(target, property, receiver) {
      if (property in target || typeof property === 'symbol') {
        return Reflect.get(target, property, receiver) as unknown;
      }
      return (...args: unknown[]) => {
        record.other.push(`${name}.${String(property)}`);
        void args;
        return new Disposable();
      };
    },
  });
}

/** Settings of the `agentSwitchboard` section the stub answers (everything else reads its default). */
export interface StubOptions {
  readonly configuration?: Readonly<Record<string, unknown>>;
}

export function createVscodeStub(options: StubOptions = {}): { api: Record<string, unknown>; record: StubRecord } {
  const record: StubRecord = { commands: [], handlers: new Map(), views: [], other: [] };
  const logger = recording('log', {
    logLevel: 2,
    onDidChangeLogLevel: () => new Disposable(),
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    append: () => undefined,
    appendLine: () => undefined,
    show: () => undefined,
    dispose: () => undefined,
  }, record);
  const statusBarItem = (): object => ({ show: () => undefined, hide: () => undefined, dispose: () => undefined });
  const api: Record<string, unknown> = {
    version: '1.95.0-stub',
    Disposable,
    EventEmitter,
    Uri,
    TreeItem,
    ThemeIcon,
    ThemeColor,
    MarkdownString,
    Range: Simple,
    Position: Simple,
    WorkspaceEdit: Simple,
    FileDecoration: Simple,
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    ExtensionMode: { Production: 1, Development: 2, Test: 3 },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    commands: recording('commands', {
      registerCommand: (id: string, handler: (...args: unknown[]) => unknown) => {
        record.commands.push(id);
        record.handlers.set(id, handler);
        return new Disposable();
      },
      executeCommand: () => Promise.resolve(undefined),
    }, record),
    window: recording('window', {
      createOutputChannel: () => logger,
      createStatusBarItem: statusBarItem,
      createTreeView: (id: string) => {
        record.views.push(id);
        // Hidden: the idle benchmark measures a window whose views are closed.
        return { visible: false, onDidChangeSelection: () => new Disposable(), onDidChangeVisibility: () => new Disposable(), dispose: () => undefined, badge: undefined };
      },
      registerWebviewViewProvider: (id: string) => {
        record.views.push(id);
        return new Disposable();
      },
      showWarningMessage: () => Promise.resolve(undefined),
      showErrorMessage: () => Promise.resolve(undefined),
      showInformationMessage: () => Promise.resolve(undefined),
      onDidChangeActiveTextEditor: () => new Disposable(),
      activeTextEditor: undefined,
      state: { focused: true, active: true },
      onDidChangeWindowState: () => new Disposable(),
      tabGroups: { all: [], onDidChangeTabs: () => new Disposable(), onDidChangeTabGroups: () => new Disposable() },
    }, record),
    workspace: recording('workspace', {
      workspaceFolders: undefined,
      textDocuments: [],
      getConfiguration: (section?: string) => ({
        get: <T>(key: string, fallback?: T) => (section === 'agentSwitchboard' && options.configuration && key in options.configuration ? (options.configuration[key] as T) : fallback),
        // The given settings are the user's (settings.ts reads the connections by origin through inspect).
        inspect: (key: string) => (section === 'agentSwitchboard' && options.configuration && key in options.configuration ? { key, globalValue: options.configuration[key] } : undefined),
        has: () => false,
        update: () => Promise.resolve(),
      }),
      onDidChangeConfiguration: () => new Disposable(),
      registerTextDocumentContentProvider: () => new Disposable(),
      fs: {},
    }, record),
    env: recording('env', { clipboard: { writeText: () => Promise.resolve() }, openExternal: () => Promise.resolve(true) }, record),
    languages: recording('languages', {}, record),
    extensions: recording('extensions', { getExtension: () => undefined }, record),
  };
  return { api, record };
}
