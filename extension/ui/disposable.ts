/**
 * Base class for everything in the UI layer that owns resources: `_register` ties a disposable to this object's
 * lifetime; dispose is idempotent, and registering after dispose disposes at once. The bookkeeping is the pure
 * layers' `DisposableStore` (base/emitter.ts): one implementation of those rules for the whole extension.
 */
import type * as vscode from 'vscode';
import { DisposableStore } from '../base/emitter';

export abstract class Disposable implements vscode.Disposable {
  private readonly owned = new DisposableStore();

  protected get isDisposed(): boolean {
    return this.owned.isDisposed;
  }

  protected _register<T extends vscode.Disposable>(item: T): T {
    return this.owned.add(item);
  }

  dispose(): void {
    this.owned.dispose();
  }
}
