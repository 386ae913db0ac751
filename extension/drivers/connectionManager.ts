/**
 * Owns one driver per connection profile. Profiles come from settings (the UI passes them in); the manager adds
 * them to the store, creates drivers through per-protocol factories, and routes user actions to the right driver.
 * Pure (no `vscode`): the UI layer adapts it.
 */
import type { ProtocolName } from '../model/modelTypes';
import type { RunStore } from '../model/runStore';
import type { FrameTap } from '../transport/frameTap';
import type { ConnectionProfile, Driver } from './driver';
import type { TerminalViews } from './kit/terminalViews';
import type { DriverSecrets, WorkspaceAccess } from './kit/workspaceAccess';
import { DriverError } from './driver';
import type { ProfileOrigin } from './profileTrust/profileSources';
import type { HistoryRetention } from './kit/runRetention';

export interface DriverContext {
  readonly store: RunStore;
  readonly connectionId: string;
  readonly profile: ConnectionProfile;
  /** Records every frame (trace file + log). */
  readonly tap: FrameTap;
  /** Extension storage directory for durable transcripts (shared by every editor window of this machine). */
  readonly storageDir: string;
  /**
   * This editor window, the same across its reloads (the UI keeps a random id in the workspace state): the window
   * that started or took over a run writes its journal and owns it (drivers/kit/runWriters.ts). Absent: this process.
   */
  readonly windowId?: string;
  /** What the person calls this window (its workspace's name): a run another window writes is refused naming it. */
  readonly windowName?: string;
  readonly log: DriverLog;
  /** The window's first workspace folder, if any (SCV starts its sessions there). */
  readonly workspaceFolder?: string;
  /** The editor's files as an agent may read and write them (absent in tests that do not need it). */
  readonly workspace?: WorkspaceAccess;
  /** Where the commands an agent runs through the editor are shown (absent: the driver runs none). */
  readonly terminals?: TerminalViews;
  /** Where a driver keeps what it must not write anywhere else (an agent's API key). */
  readonly secrets?: DriverSecrets;
  /** Where the profile was defined (absent: the user's settings). A repository's profile may do less. */
  readonly profileOrigin?: ProfileOrigin;
  /**
   * Why the connection may not be made now (a workspace profile whose consent was taken back), checked before every
   * attempt — also a driver's own reconnect or restart, which do not pass the manager's gate. Never asks anything.
   */
  readonly connectRefusal?: () => string | undefined;
  /** Which finished runs stay on the board (the `agentSwitchboard.history.*` settings); absent: the defaults. */
  readonly retention?: () => HistoryRetention;
  /**
   * A run's stored files were deleted — *Remove Run*, *Clear Finished Runs…*, or the history size limit at connect —
   * and it is out of the model: the editor forgets what it keeps of it (its key; ui/removedRuns.ts). Absent: nobody
   * keeps anything per run (tests).
   */
  readonly runRemoved?: (runKey: string) => void;
  /**
   * What the editor keeps of a run beside its journal and goes with it when it is removed (its worktree, issue #26):
   * read before the run's files are deleted, the returned step run once they are (kit/runHistory.ts `onRemoval`).
   */
  readonly runRemoval?: (runId: string) => Promise<() => Promise<void>>;
}

/**
 * Decides whether a connection may be made, before its driver connects (which spawns an ACP agent). Rejects with
 * the reason when not: the UI asks for consent to a profile a repository's settings define (ui/workspaceConnections).
 */
export type ConnectGate = (connectionId: string, profile: ConnectionProfile) => Promise<void>;

export interface DriverLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export type DriverFactory = (context: DriverContext) => Driver;

export function connectionIdOf(profile: ConnectionProfile): string {
  return `${profile.protocol}:${profile.name}`;
}

export class ConnectionManager {
  private readonly drivers = new Map<string, Driver>();
  private profiles = new Map<string, ConnectionProfile>();
  private origins: ReadonlyMap<string, ProfileOrigin> = new Map();

  constructor(
    private readonly store: RunStore,
    private readonly factories: Partial<Record<ProtocolName, DriverFactory>>,
    private readonly makeContext: (connectionId: string, profile: ConnectionProfile, origin: ProfileOrigin) => Omit<DriverContext, 'store' | 'connectionId' | 'profile'>,
    private readonly gate: ConnectGate = () => Promise.resolve(),
  ) {}

  /**
   * Replaces the set of profiles: new ones are added, removed ones disconnected and dropped, changed ones reset. A
   * profile whose origin changed (`origins`, by connection id; absent: the user's) counts as changed: the same
   * content from a repository's settings must pass the gate again. Resolves the profiles that were removed.
   */
  async setProfiles(profiles: readonly ConnectionProfile[], origins: ReadonlyMap<string, ProfileOrigin> = new Map()): Promise<readonly ConnectionProfile[]> {
    const next = new Map(profiles.map((p) => [connectionIdOf(p), p]));
    const removed: ConnectionProfile[] = [];
    for (const [id, old] of this.profiles) {
      const replacement = next.get(id);
      if (!replacement || JSON.stringify(replacement) !== JSON.stringify(old) || (origins.get(id) ?? 'user') !== this.originOf(id)) {
        await this.dropDriver(id);
        if (!replacement) {
          this.store.dispatch({ type: 'connectionRemoved', connectionId: id });
          removed.push(old);
        }
      }
    }
    for (const [id, profile] of next) {
      this.store.dispatch({ type: 'connectionAdded', connection: { id, name: profile.name, protocol: profile.protocol } });
    }
    this.profiles = next;
    this.origins = origins;
    return removed;
  }

  /** Where the profile was defined (the user's settings unless `setProfiles` said otherwise). */
  originOf(connectionId: string): ProfileOrigin {
    return this.origins.get(connectionId) ?? 'user';
  }

  profile(connectionId: string): ConnectionProfile | undefined {
    return this.profiles.get(connectionId);
  }

  allProfiles(): readonly ConnectionProfile[] {
    return [...this.profiles.values()];
  }

  driver(connectionId: string): Driver | undefined {
    return this.drivers.get(connectionId);
  }

  /** The driver of a connection, created on first use. */
  ensureDriver(connectionId: string): Driver {
    const existing = this.drivers.get(connectionId);
    if (existing) {
      return existing;
    }
    const profile = this.profiles.get(connectionId);
    if (!profile) {
      throw new DriverError(`There is no connection profile "${connectionId}".`);
    }
    const factory = this.factories[profile.protocol];
    if (!factory) {
      throw new DriverError(`Agent Switchboard cannot talk to ${profile.protocol} daemons in this version.`);
    }
    const profileOrigin = this.originOf(connectionId);
    const driver = factory({ store: this.store, connectionId, profile, profileOrigin, ...this.makeContext(connectionId, profile, profileOrigin) });
    this.drivers.set(connectionId, driver);
    return driver;
  }

  /** Connects once the gate allows it (every connect goes through here: auto-connect, the tree, the palette). */
  async connect(connectionId: string): Promise<void> {
    const profile = this.profiles.get(connectionId);
    if (!profile) {
      throw new DriverError(`There is no connection profile "${connectionId}".`);
    }
    await this.gate(connectionId, profile);
    // The profile may have changed while the gate asked: connect only the one that was allowed.
    if (JSON.stringify(this.profiles.get(connectionId)) !== JSON.stringify(profile)) {
      throw new DriverError(`The connection profile "${profile.name}" changed while it was being reviewed; connect again.`);
    }
    await this.ensureDriver(connectionId).connect();
  }

  async disconnect(connectionId: string): Promise<void> {
    await this.drivers.get(connectionId)?.disconnect();
  }

  /** Disconnects and disposes every driver; resolves once each has flushed and closed its storage. */
  /** Closes every connection, side by side (a window reload waits for this: see extension.ts `deactivate`). */
  async dispose(): Promise<void> {
    await Promise.all([...this.drivers.keys()].map((id) => this.dropDriver(id)));
  }

  /** Disconnects and disposes the driver (awaited: its storage is flushed before a replacement opens it). */
  private async dropDriver(id: string): Promise<void> {
    const driver = this.drivers.get(id);
    if (!driver) {
      return;
    }
    this.drivers.delete(id);
    try {
      await driver.disconnect();
    } finally {
      await driver.dispose();
    }
  }
}
