/** The Approval Rules view: every rule that can answer now, with its scope; Revoke inline, Reset in the title. */
import * as vscode from 'vscode';
import type { ApprovalRule } from '../../model/approvalRules';
import { scopeLabel, storageLabel } from '../../model/approvalRules';
import { isCurrentPrefix } from '../../model/commandRules';
import type { RunStore } from '../../model/runStore';
import { visibleExcerpt, visibleText } from '../../protocol/visibleText';
import { Disposable } from '../disposable';
import type { ApprovalRules } from './approvalRules';

export class ApprovalRulesView extends Disposable implements vscode.TreeDataProvider<ApprovalRule> {
  static readonly viewId = 'agentSwitchboard.approvalRules';
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(
    private readonly rules: ApprovalRules,
    private readonly store: RunStore,
  ) {
    super();
    this._register(rules.onDidChange(() => this.emitter.fire()));
  }

  getChildren(element?: ApprovalRule): ApprovalRule[] {
    return element ? [] : this.rules.all();
  }

  /** Where the rule applies, by name: "this run (Fix the parser)", "this connection until it closes (AgencyProxy)". */
  describe(rule: ApprovalRule): string {
    const scope = rule.scope;
    const name =
      scope.kind === 'run'
        ? this.store.state.runs.get(scope.runKey)?.title
        : this.store.state.connections.get(scope.connectionId)?.name;
    return name ? `${scopeLabel(scope)} · ${visibleText(name)}` : scopeLabel(scope);
  }

  getTreeItem(rule: ApprovalRule): vscode.TreeItem {
    // A label holds agent text (an exact command, a path): hidden characters shown, long ones cut in the middle.
    const item = new vscode.TreeItem(visibleExcerpt(rule.label, 200), vscode.TreeItemCollapsibleState.None);
    item.id = rule.id;
    // A prefix saved by an older version that is wider than the editor proposes now: listed so it can be revoked.
    const inactive = rule.pattern.kind === 'commandPrefix' && !isCurrentPrefix(rule.pattern.prefix);
    item.description = inactive ? `no longer matches (too wide) · ${this.describe(rule)}` : this.describe(rule);
    item.tooltip = new vscode.MarkdownString().appendText(`${visibleExcerpt(rule.label, 2000, 'keep')}\n\nScope: ${this.describe(rule)}\n\n${storageLabel(rule.scope)}`);
    item.iconPath = new vscode.ThemeIcon(rule.effect === 'allow' ? 'pass' : 'circle-slash');
    item.contextValue = 'approvalRule';
    return item;
  }
}
