/** The ACP driver against the reference agent process, for the driver tests: one rig per test, cleaned up after it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'node:test';
import { AcpDriver } from '../../../../extension/drivers/acp/acpDriver';
import type { TerminalViews } from '../../../../extension/drivers/kit/terminalViews';
import type { DriverSecrets, WorkspaceAccess } from '../../../../extension/drivers/kit/workspaceAccess';
import type { ConnectionProfile } from '../../../../extension/drivers/driver';
import { runKeyOf } from '../../../../extension/model/modelTypes';
import type { RunInfo } from '../../../../extension/model/modelTypes';
import type { TranscriptItem } from '../../../../extension/protocol/transcriptTypes';
import { referenceAgentBundle } from '../../../fixtures/acp/referenceAgentProcess';
import { driverSetup, until } from '../driverKit';
import type { TempWorkspace } from './acpWorkspace';
import { makeWorkspace } from './acpWorkspace';
import { diskWorkspace } from './diskWorkspace';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) {
    await c();
  }
});

export function later(cleanup: () => void | Promise<void>): void {
  cleanups.push(cleanup);
}

export interface RigOptions {
  /** Reuse a workspace, storage and agent state (a second window after a reload); owned by the first rig. */
  readonly ws?: TempWorkspace;
  readonly storage?: string;
  readonly stateDir?: string;
  readonly agentArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly secrets?: DriverSecrets;
  /** The profile's MCP servers. */
  readonly mcpServers?: ConnectionProfile['mcpServers'];
  /** Do not wait for the connection (a test of a failing start). */
  readonly noWait?: boolean;
  /** More of the reference agent's profile (e.g. a start mode). */
  readonly profile?: Partial<Omit<ConnectionProfile, 'name' | 'protocol' | 'command' | 'args'>>;
  /** Another agent than the reference agent (a real one): the profile's command, args, env, start mode. */
  readonly agent?: (ws: TempWorkspace) => Omit<ConnectionProfile, 'name' | 'protocol'>;
  /** Wraps the editor's files the driver gets (on the disk of the workspace), e.g. to edit a file "meanwhile". */
  readonly workspace?: (disk: WorkspaceAccess) => WorkspaceAccess;
  /** Where the agent's commands are shown (absent: the driver runs none). */
  readonly terminals?: TerminalViews;
}

export interface Rig {
  readonly driver: AcpDriver;
  readonly ws: TempWorkspace;
  readonly storage: string;
  readonly stateDir: string;
  readonly frames: { dir: string; frame: unknown }[];
  readonly setup: ReturnType<typeof driverSetup>;
  items(runId: string): readonly TranscriptItem[];
}

export async function rig(options: RigOptions = {}): Promise<Rig> {
  const ws = options.ws ?? makeWorkspace({ git: true });
  const storage = options.storage ?? mkdtempSync(join(tmpdir(), 'acp-storage-'));
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'acp-state-'));
  if (!options.ws) {
    later(ws.remove);
    later(() => rmSync(storage, { recursive: true, force: true, maxRetries: 5 }));
    later(() => rmSync(stateDir, { recursive: true, force: true }));
  }
  const profile: ConnectionProfile = options.agent
    ? { name: 'agent', protocol: 'acp', ...options.agent(ws) }
    : {
        name: 'ref',
        protocol: 'acp',
        command: process.execPath,
        args: [await referenceAgentBundle(), '--state-dir', stateDir, '--chunk-ms', '0', '--slow-chunk-ms', '20', ...(options.agentArgs ?? [])],
        ...(options.env ? { env: { ...options.env } } : {}),
        ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
        ...options.profile,
      };
  const frames: { dir: string; frame: unknown }[] = [];
  const setup = driverSetup(profile, storage, { workspaceFolder: ws.dir, tap: (dir, frame) => frames.push({ dir, frame }) });
  const disk = diskWorkspace([ws.dir]);
  const driver = new AcpDriver({ ...setup.ctx, workspace: options.workspace ? options.workspace(disk) : disk, ...(options.secrets ? { secrets: options.secrets } : {}), ...(options.terminals ? { terminals: options.terminals } : {}) });
  later(() => driver.dispose());
  await driver.connect();
  if (!options.noWait) {
    await until('connected', () => setup.store.state.connections.get(setup.connectionId)?.state.kind === 'connected');
  }
  return { driver, ws, storage, stateDir, frames, setup, items: (runId) => setup.store.transcript(runKeyOf(setup.connectionId, runId))?.snapshot() ?? [] };
}

export const run = (r: Rig, runId: string): RunInfo | undefined => r.setup.store.state.runs.get(runKeyOf(r.setup.connectionId, runId));
export const idle = (r: Rig, runId: string): boolean => run(r, runId)?.state === 'idle';
