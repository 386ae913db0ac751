/**
 * Base class for everything in the UI layer that owns resources: `_register` ties a disposable to this object's
 * lifetime; dispose is idempotent, and registering after dispose disposes at once.
 */
import type * as vscode from 'vscode';

export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposedFlag = false;

  protected get isDisposed(): boolean {
    return this.disposedFlag;
  }

  protected _register<T extends vscode.Disposable>(item: T): T {
    if (this.disposedFlag) {
      item.dispose();
    } else {
      this.owned.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposedFlag) {
      return;
    }
    this.disposedFlag = true;
    const errors: unknown[] = [];
    for (const item of this.owned.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) {
      throw new AggregateError(errors, 'errors while disposing');
    }
  }
}
