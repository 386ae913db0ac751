/**
 * A tiny typed event emitter for the pure layers, shaped like `vscode.EventEmitter` so the UI layer can adapt it
 * without ceremony. Listener errors are isolated: one throwing listener never stops the others or the caller.
 */
export interface Disposable {
  dispose(): void;
}

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners: Listener<T>[] = [];
  private disposed = false;

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) {
      return { dispose: () => undefined };
    }
    // Copy on write: `fire` walks the array it found, so listeners may (un)subscribe meanwhile, and firing (once
    // per streamed frame) copies nothing.
    this.listeners = [...this.listeners, listener];
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== listener);
      },
    };
  };

  fire(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

/** Disposes everything once, in reverse order of registration; collects errors into one AggregateError. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) {
      return;
    }
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    this.items = [];
    if (errors.length > 0) {
      throw new AggregateError(errors, 'errors while disposing');
    }
  }
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose: () => {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}
