/**
 * Read-only virtual documents on the `agent-switchboard-hive:` scheme: an agent's container logs (`get_logs`) and
 * the host journal (`get_host_journal`). The URI says what to fetch, so "Refresh" (editor title, or running the
 * command again) re-reads the same view.
 */
import * as vscode from 'vscode';
import type { HostJournalQuery } from '../../drivers/hive/hiveClientOptions';
import { Disposable } from '../disposable';
import type { HiveDriver } from '../../drivers/hive/hiveDriver';

export const HIVE_DOCUMENT_SCHEME = 'agent-switchboard-hive';

export type HiveDocumentKind = 'logs' | 'journal';

export interface HiveDocumentSpec {
  readonly kind: HiveDocumentKind;
  readonly connectionId: string;
  /** `logs`: the agent; `journal`: the agent whose socket to use when there is no manager (optional). */
  readonly agent?: string;
  readonly lines?: number;
  readonly query?: Omit<HostJournalQuery, 'lines'>;
}

export class HiveDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly driverOf: (connectionId: string) => HiveDriver | undefined) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(HIVE_DOCUMENT_SCHEME, this));
  }

  uriFor(spec: HiveDocumentSpec, connectionName: string): vscode.Uri {
    const file = spec.kind === 'logs' ? `${spec.agent ?? 'agent'}.log` : 'host-journal.log';
    const query = new URLSearchParams({ kind: spec.kind, connection: spec.connectionId });
    if (spec.agent !== undefined) {
      query.set('agent', spec.agent);
    }
    if (spec.lines !== undefined) {
      query.set('lines', String(spec.lines));
    }
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (typeof value === 'string' && value !== '') {
        query.set(`q.${key}`, value);
      }
    }
    return vscode.Uri.from({ scheme: HIVE_DOCUMENT_SCHEME, path: `/${connectionName.replace(/[\\/]/g, '_')}/${file}`, query: query.toString() });
  }

  /** Fetches (again) and shows the document; rejects with the daemon's reason when it cannot be read. */
  async show(uri: vscode.Uri): Promise<vscode.TextEditor> {
    await this.load(uri);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'log') {
      doc = await vscode.languages.setTextDocumentLanguage(doc, 'log');
    }
    return vscode.window.showTextDocument(doc, { preview: false });
  }

  /** Re-reads an open document's content. */
  async load(uri: vscode.Uri): Promise<void> {
    const spec = specOf(uri);
    if (!spec) {
      throw new Error('This is not a hive document.');
    }
    const driver = this.driverOf(spec.connectionId);
    if (!driver) {
      throw new Error('That hive is not connected.');
    }
    const text =
      spec.kind === 'logs'
        ? await driver.agentLogs(spec.agent ?? '', spec.lines)
        : await driver.hostJournal({ ...spec.query, ...(spec.lines !== undefined ? { lines: spec.lines } : {}) }, spec.agent);
    this.contents.set(uri.toString(), text === '' ? '(empty)\n' : text.endsWith('\n') ? text : `${text}\n`);
    this.changeEmitter.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '(Not loaded: run "Refresh" in the editor title.)\n';
  }
}

export function specOf(uri: vscode.Uri): HiveDocumentSpec | undefined {
  if (uri.scheme !== HIVE_DOCUMENT_SCHEME) {
    return undefined;
  }
  const params = new URLSearchParams(uri.query);
  const kind = params.get('kind');
  const connectionId = params.get('connection');
  if ((kind !== 'logs' && kind !== 'journal') || !connectionId) {
    return undefined;
  }
  const lines = Number(params.get('lines'));
  const query: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key.startsWith('q.')) {
      query[key.slice(2)] = value;
    }
  }
  return {
    kind,
    connectionId,
    ...(params.get('agent') !== null ? { agent: params.get('agent')! } : {}),
    ...(Number.isSafeInteger(lines) && lines > 0 ? { lines } : {}),
    query,
  };
}
