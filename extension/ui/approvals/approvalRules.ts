/**
 * The owner of the approval rules a person saved. Run and connection rules live in memory: a run rule goes when its
 * run ends or is removed (model/approvalRules.ts `ruleOutlived`), so the view never lists one that guards nothing
 * and a reload, which keeps no run rule, shows the same list; a connection rule is
 * dropped the moment its connection stops being connected, and a connection that opens again starts a new epoch,
 * so nothing made on the old one can match. Workspace rules are kept in the workspace's state, and only used (and
 * only offered) while the user opted in with `agentSwitchboard.approvals.allowWorkspaceRules`.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { ApprovalRule, RuleContext, RuleScope } from '../../model/approvalRules';
import { matchRules, ruleOutlived } from '../../model/approvalRules';
import type { ApprovalInfo, ModelState } from '../../model/modelTypes';
import type { RunStore } from '../../model/runStore';
import { Disposable } from '../disposable';
import { workspaceRulesAllowedByUser } from '../settings';

const WORKSPACE_KEY = 'agentSwitchboard.approvalRules';

const storedRuleSchema = z.object({
  id: z.string(),
  effect: z.enum(['allow', 'deny']),
  tool: z.string(),
  pattern: z.union([
    z.object({ kind: z.literal('pathGlob'), glob: z.string() }),
    z.object({ kind: z.literal('commandPrefix'), prefix: z.string() }),
    z.object({ kind: z.literal('commandExact'), command: z.string() }),
    z.object({ kind: z.literal('anyInput') }),
  ]),
  scope: z.object({ kind: z.literal('workspace'), connectionId: z.string() }),
  createdAt: z.number(),
  label: z.string(),
});

/** The user's setting only: a repository's settings cannot turn stored rules on (ui/settings.ts). */
export function workspaceRulesAllowed(): boolean {
  return workspaceRulesAllowedByUser();
}

export class ApprovalRules extends Disposable {
  private memory: ApprovalRule[] = [];
  private readonly epochs = new Map<string, number>();
  private readonly connected = new Set<string>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changeEmitter.event;
  private next = 0;

  constructor(
    private readonly store: RunStore,
    private readonly workspaceState: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(store.onDidChange((state) => this.onStateChange(state)));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('agentSwitchboard.approvals.allowWorkspaceRules')) {
          this.changeEmitter.fire();
        }
      }),
    );
    this.onStateChange(store.state);
  }

  /** Every rule that can answer now (workspace rules only while opted in), in the order they were saved. */
  all(): ApprovalRule[] {
    return [...this.memory, ...(workspaceRulesAllowed() ? this.stored() : [])].sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The scope `kind` for the request's run or connection (its current epoch). */
  scopeFor(approval: ApprovalInfo, kind: RuleScope['kind']): RuleScope | undefined {
    const context = this.contextOf(approval);
    if (!context) {
      return undefined;
    }
    switch (kind) {
      case 'run':
        return { kind: 'run', runKey: context.runKey };
      case 'connection':
        return { kind: 'connection', connectionId: context.connectionId, epoch: context.epoch };
      case 'workspace':
        return workspaceRulesAllowed() ? { kind: 'workspace', connectionId: context.connectionId } : undefined;
      default: {
        const _exhaustive: never = kind;
        return _exhaustive;
      }
    }
  }

  newId(): string {
    return `rule-${Date.now().toString(36)}-${++this.next}`;
  }

  /** The rule that answers `approval`, if any (deny rules win). */
  match(approval: ApprovalInfo): ApprovalRule | undefined {
    const context = this.contextOf(approval);
    return context ? matchRules(this.all(), approval.subject, context) : undefined;
  }

  async add(rule: ApprovalRule): Promise<void> {
    if (rule.scope.kind === 'workspace') {
      if (!workspaceRulesAllowed()) {
        throw new Error('Workspace approval rules are off (agentSwitchboard.approvals.allowWorkspaceRules).');
      }
      await this.workspaceState.update(WORKSPACE_KEY, [...this.stored(), rule]);
    } else {
      this.memory = [...this.memory, rule];
    }
    this.log.info(`Approval rule saved: ${rule.label} (${rule.scope.kind})`);
    this.changeEmitter.fire();
  }

  async revoke(id: string): Promise<boolean> {
    const before = this.memory.length;
    this.memory = this.memory.filter((r) => r.id !== id);
    let removed = this.memory.length !== before;
    const stored = this.stored();
    if (stored.some((r) => r.id === id)) {
      await this.workspaceState.update(WORKSPACE_KEY, stored.filter((r) => r.id !== id));
      removed = true;
    }
    if (removed) {
      this.log.info(`Approval rule ${id} revoked`);
      this.changeEmitter.fire();
    }
    return removed;
  }

  /** Removes every rule, the stored workspace ones too (also those kept while the setting is off). */
  async reset(): Promise<number> {
    const count = this.memory.length + this.stored().length;
    this.memory = [];
    await this.workspaceState.update(WORKSPACE_KEY, undefined);
    this.log.info(`Approval rules reset (${count} removed)`);
    this.changeEmitter.fire();
    return count;
  }

  private stored(): ApprovalRule[] {
    const raw = this.workspaceState.get<unknown>(WORKSPACE_KEY, []);
    const list = Array.isArray(raw) ? raw : [];
    return list.flatMap((entry) => {
      const parsed = storedRuleSchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  }

  private contextOf(approval: ApprovalInfo): RuleContext | undefined {
    const run = this.store.state.runs.get(approval.runKey);
    return run ? { runKey: run.key, connectionId: run.connectionId, epoch: this.epochs.get(run.connectionId) ?? 0 } : undefined;
  }

  private onStateChange(state: ModelState): void {
    let changed = false;
    for (const connection of state.connections.values()) {
      const isConnected = connection.state.kind === 'connected';
      if (isConnected && !this.connected.has(connection.id)) {
        this.connected.add(connection.id);
        this.epochs.set(connection.id, (this.epochs.get(connection.id) ?? 0) + 1);
      } else if (!isConnected && this.connected.has(connection.id)) {
        this.connected.delete(connection.id);
        changed = this.dropConnectionRules(connection.id) || changed;
      }
    }
    for (const id of [...this.connected]) {
      if (!state.connections.has(id)) {
        this.connected.delete(id);
        changed = this.dropConnectionRules(id) || changed;
      }
    }
    const runsBefore = this.memory.length;
    // A run that ended, or was removed from the list, takes its rules with it.
    this.memory = this.memory.filter((r) => !ruleOutlived(r, state));
    if (this.memory.length !== runsBefore) {
      this.log.info(`Approval rules dropped: ${runsBefore - this.memory.length} of runs that ended`);
    }
    if (changed || this.memory.length !== runsBefore) {
      this.changeEmitter.fire();
    }
  }

  private dropConnectionRules(connectionId: string): boolean {
    const before = this.memory.length;
    this.memory = this.memory.filter((r) => r.scope.kind !== 'connection' || r.scope.connectionId !== connectionId);
    if (this.memory.length !== before) {
      this.log.info(`Approval rules of ${connectionId} dropped: the connection closed`);
      return true;
    }
    return false;
  }
}
