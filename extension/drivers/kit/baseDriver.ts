/**
 * What every daemon driver does the same way, so a driver only says how to open its connection:
 * - the reconnect loop: `connect` loads the driver's storage once, then keeps a connection up through
 *   `connectOnce`, with each state written to the model (`connectionState`), failures told by the kit's
 *   `errorText` (`connectionErrorText`) and `isFatal` deciding which stop retrying;
 * - two cleanup scopes: the connection's (`ConnectionScope`, a fresh one per attempt, ended when the connection is
 *   closed or lost) and the driver's (`driverScope`, disposed once with the driver);
 * - the one door into the model (`runs`, driverRuns.ts), journaled or not as the driver's `journaling` says;
 *   with `approvalsDieWithConnection` the base expires what every run of the connection waits for whenever a
 *   connection ends, for daemons that forget approvals with their connection (SCV);
 * - an awaitable `dispose`: stop the loop, close the connection, flush and close storage, dispose the scopes.
 */
import { DisposableStore } from '../../base/emitter';
import type { ProtocolName } from '../../model/modelTypes';
import type { DriverContext } from '../connectionManager';
import type { DriverHistory } from '../driver';
import { ConnectionScope } from './connectionScope';
import { DriverRuns } from './driverRuns';
import { DriverError, errorText } from './errors';
import { ReconnectLoop } from './reconnectLoop';
import type { ReconnectLoopOptions } from './reconnectLoop';
import type { Journaling } from './runJournaling';

export interface BaseDriverOptions {
  /** Backoff and time of the reconnect loop (tests shorten and drive them). */
  readonly reconnect?: Pick<ReconnectLoopOptions, 'baseMs' | 'capMs' | 'random' | 'clock' | 'timers'>;
  /**
   * The daemon forgets a connection's pending approvals when the connection ends (SCV: the session ends with its
   * connection, WIRE.md §6.2), so each time one ends every approval of this connection's runs that is still pending
   * expires. Off by default: elsewhere an approval lasts as long as the daemon's run (AgencyProxy asks again after
   * re-attaching).
   */
  readonly approvalsDieWithConnection?: boolean;
}

/** `C`: the driver's journal cursor (its resume state beside the model's inputs), `never` for none. */
export abstract class BaseDriver<C = never> {
  abstract readonly protocol: ProtocolName;
  readonly connectionId: string;
  /** This connection's runs: the driver's one door into the model. */
  protected readonly runs: DriverRuns<C>;
  /**
   * Whether the runs are journaled, declared once by every driver (read at the door's first write): a field of the
   * driver, so its checkpoint books may close over the driver's own books.
   */
  protected abstract readonly journaling: Journaling<C>;
  /** Disposed once, last, when the driver is disposed (emitters, timers, clients that outlive a connection). */
  protected readonly driverScope = new DisposableStore();
  private readonly loop: ReconnectLoop;
  private current: ConnectionScope | undefined;
  /** The reconnect loop's "it dropped" callback of the latest attempt (a renewed scope reports to it as well). */
  private attemptLost: ((reason: string) => void) | undefined;
  private storageLoaded: Promise<void> | undefined;
  private disposing: Promise<void> | undefined;

  constructor(
    protected readonly ctx: DriverContext,
    private readonly baseOptions: BaseDriverOptions = {},
  ) {
    this.connectionId = ctx.connectionId;
    this.runs = new DriverRuns<C>(ctx, () => this.journaling);
    this.loop = new ReconnectLoop({
      ...baseOptions.reconnect,
      connectOnce: (onLost) => this.attempt(onLost),
      setState: (state) => this.runs.connectionState(state),
      describeError: (error) => ({ message: this.connectionErrorText(error), fatal: this.isFatal(error) }),
    });
  }

  /** Counts connect and disconnect calls: a connect still loading storage gives way to a later call. */
  private connectRequests = 0;

  /** Loads what the driver stored (once, before the first attempt), then connects and keeps reconnecting until `disconnect`. */
  async connect(): Promise<void> {
    if (this.disposing) {
      return;
    }
    const request = ++this.connectRequests;
    this.storageLoaded ??= this.loadStorage();
    await this.storageLoaded;
    // Disconnected or disposed while the journal was being replayed (a reload, a removed profile, a quick
    // Disconnect): the loop must not start, or it would keep retrying for a driver nobody wants connected (a test
    // process that never exited saw it).
    if (this.disposing || request !== this.connectRequests) {
      return;
    }
    await this.loop.start();
  }

  /** Stops reconnecting and closes the connection (its scope ends). */
  async disconnect(): Promise<void> {
    this.connectRequests++;
    this.loop.stop();
    this.current?.close();
    await this.afterDisconnect();
  }

  /** Stops the loop, closes the connection, flushes and closes storage, then disposes the driver's scope. Once. */
  dispose(): Promise<void> {
    this.disposing ??= this.disposeOnce();
    return this.disposing;
  }

  /** Resolves once everything folded so far is on disk (the window is about to go away; tests of a reload). */
  flushStorage(): Promise<void> {
    return this.runs.flush();
  }

  protected get isDisposed(): boolean {
    return this.disposing !== undefined;
  }

  /** Whether `connect` was called and not undone by `disconnect` (or a fatal failure). */
  protected get wantsConnection(): boolean {
    return this.loop.isWanted;
  }

  /** The open connection's scope, if a connection is open (or being opened). */
  protected get connection(): ConnectionScope | undefined {
    return this.current;
  }

  /** The connection's stored runs, for the UI: the door does the work (runs shown from summaries, removal). */
  get history(): DriverHistory {
    return this.runs.history;
  }

  /** Expires one approval of the run, through the door (the gate's call when a decision could not be delivered). */
  expireApproval(runId: string, approvalId: string, reason: string): Promise<readonly string[]> {
    return this.runs.expireApprovals(runId, reason, (id) => id === approvalId);
  }

  /** Opens the connection; resolves once it is up. Ties what belongs to it to `connection`, and calls its `lost` if it drops. */
  protected abstract connectOnce(connection: ConnectionScope): Promise<void>;

  /** Rebuilds what the driver stored (after a window reload). Runs once, before the first connection attempt. */
  protected loadStorage(): Promise<void> {
    return Promise.resolve();
  }

  /** After `disconnect` closed the connection (e.g. wait for what its end recorded to reach the disk). */
  protected afterDisconnect(): Promise<void> {
    return Promise.resolve();
  }

  /** Closes the driver's storage for good (after the last flush). */
  protected closeStorage(): Promise<void> {
    return this.runs.close();
  }

  /** Whether a failed attempt can never succeed by retrying (the loop then stops as `failed`). */
  protected isFatal(error: unknown): boolean {
    return error instanceof DriverError && error.code === 'fatal';
  }

  /** The text the connection state shows for a failed attempt. */
  protected connectionErrorText(error: unknown): string {
    return errorText(error);
  }

  /**
   * Ends the open connection on purpose and opens a new scope for its replacement, within the same attempt (SCV
   * starts a new session on a new connection): a `lost` on the new scope makes the loop reconnect as usual.
   */
  protected renewConnection(): ConnectionScope {
    const lost = this.attemptLost ?? (() => undefined);
    this.current?.close();
    return this.openScope(lost);
  }

  private async attempt(onLost: (reason: string) => void): Promise<void> {
    // Checked before every attempt, the driver's own reconnects and restarts included (drivers/connectionManager.ts).
    const refusal = this.ctx.connectRefusal?.();
    if (refusal !== undefined) {
      throw new DriverError(refusal, 'fatal');
    }
    this.current?.close(); // a previous connection that never said it ended
    this.attemptLost = onLost;
    const scope = this.openScope(onLost);
    try {
      await this.connectOnce(scope);
    } catch (error) {
      scope.close();
      throw error;
    }
  }

  private openScope(onLost: (reason: string) => void): ConnectionScope {
    const scope: ConnectionScope = new ConnectionScope(
      (lostReason) => {
        if (this.current === scope) {
          this.current = undefined;
        }
        if (this.baseOptions.approvalsDieWithConnection) {
          for (const run of this.runs.all()) {
            void this.runs.expireApprovals(run.runId);
          }
        }
        if (lostReason !== undefined) {
          onLost(lostReason);
        }
      },
      (error) => this.ctx.log.error(`Closing the connection: ${errorText(error)}`),
    );
    this.current = scope;
    return scope;
  }

  private async disposeOnce(): Promise<void> {
    try {
      await this.disconnect();
      await this.flushStorage();
    } finally {
      await this.closeStorage().catch((error: unknown) => this.ctx.log.error(`Closing storage: ${errorText(error)}`));
      try {
        this.driverScope.dispose();
      } catch (error) {
        this.ctx.log.error(`Disposing the driver: ${errorText(error)}`);
      }
    }
  }
}
