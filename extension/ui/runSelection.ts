/** Which run the Transcript view shows. Changed by the tree, commands and notifications. */
import * as vscode from 'vscode';
import { Disposable } from './disposable';

export class RunSelection extends Disposable {
  private current: string | undefined;
  private readonly changeEmitter = this._register(new vscode.EventEmitter<string | undefined>());
  readonly onDidChange = this.changeEmitter.event;

  get runKey(): string | undefined {
    return this.current;
  }

  select(runKey: string | undefined): void {
    if (runKey !== this.current) {
      this.current = runKey;
      this.changeEmitter.fire(runKey);
    }
  }
}
