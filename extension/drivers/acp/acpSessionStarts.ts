/**
 * Where a new ACP session comes from. "New Run…" asks what the agent offers (its models and modes) before the
 * prompt, and an agent says that only in a `session/new` answer: so that question creates the session, and the run
 * the person then starts in the same folder takes it (a second question reuses it). Without the question (tests,
 * automation) the run creates its own. The spare session goes with the agent process.
 */
import type { McpServer, NewSessionResponse } from '@agentclientprotocol/sdk';
import type { NewRunChoices } from '../driver';
import { DriverError } from '../kit/errors';
import type { AcpConnection } from './acpConnection';
import { newRunChoicesOf } from './acpSessionChoices';

export interface AcpSessionStartsDeps {
  agent(): AcpConnection;
  /** The profile's MCP servers the agent takes (acpMcpServers.ts). */
  mcpServers(): readonly McpServer[];
  /** Where a session starts without a workspace root (the profile's cwd, the window's folder). */
  fallbackCwd(): string | undefined;
  /** The agent's name, as the person calls it. */
  readonly name: string;
  /** Whether the agent offers sign-in methods (then "authentication required" says how to sign in). */
  canSignIn(): boolean;
  /** The profile's start mode (the default mode "New Run…" offers). */
  readonly startMode?: string | undefined;
}

/** JSON-RPC error code agents use for "authentication required". */
const AUTH_REQUIRED = '-32000';

export class AcpSessionStarts {
  private spare: { readonly cwd: string; readonly created: NewSessionResponse } | undefined;

  constructor(private readonly deps: AcpSessionStartsDeps) {}

  /**
   * The models and modes the agent offers a run in these folders (from the session the run will take). `abandon`:
   * the person cancelled "New Run…" while the agent starts the session; its `session/new` is cancelled
   * (`$/cancel_request`) and this rejects at once.
   */
  async choices(workspaceRoots: readonly string[], abandon?: AbortSignal): Promise<NewRunChoices> {
    const cwd = this.cwdOf(workspaceRoots);
    if (this.spare?.cwd !== cwd) {
      this.spare = { cwd, created: await this.create(cwd, abandon) };
    }
    return newRunChoicesOf({ modes: this.spare.created.modes ?? undefined, configOptions: this.spare.created.configOptions ?? undefined }, this.deps.startMode);
  }

  /** A session for a new run: the spare one of its folder, else a new one. */
  async take(workspaceRoots: readonly string[]): Promise<{ readonly cwd: string; readonly created: NewSessionResponse }> {
    const cwd = this.cwdOf(workspaceRoots);
    const spare = this.spare?.cwd === cwd ? this.spare.created : undefined;
    this.spare = undefined;
    return { cwd, created: spare ?? (await this.create(cwd)) };
  }

  /** The agent process went away, and its sessions with it. */
  forget(): void {
    this.spare = undefined;
  }

  private cwdOf(workspaceRoots: readonly string[]): string {
    const cwd = workspaceRoots[0] ?? this.deps.fallbackCwd();
    if (!cwd) {
      throw new DriverError('Open a folder first: an ACP session starts in a workspace folder.');
    }
    return cwd;
  }

  private create(cwd: string, abandon?: AbortSignal): Promise<NewSessionResponse> {
    return this.deps
      .agent()
      .newSession(cwd, this.deps.mcpServers(), abandon)
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code === AUTH_REQUIRED && this.deps.canSignIn()) {
          throw new DriverError(`${this.deps.name} needs you to sign in first: run "Agent Switchboard: Sign In to ACP Agent…".`, 'auth_required');
        }
        throw error;
      });
  }
}
