/**
 * The single handle on VS Code's webview API. `acquireVsCodeApi` may be called only once per page, so this module
 * owns it; every outbound message is validated against the contract before it leaves.
 */
import { webviewToHostSchema } from '../extension/protocol/webviewMessages';
import type { WebviewToHost } from '../extension/protocol/webviewMessages';

interface VsCodeApiLike {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApiLike;

export class HostChannel {
  private constructor(private readonly api: VsCodeApiLike) {}

  /** Acquires the API; call once at start-up. */
  static acquire(): HostChannel {
    return new HostChannel(acquireVsCodeApi());
  }

  /** Posts `message` if it matches the contract; otherwise logs and drops it (a bug on our side). */
  post(message: WebviewToHost): boolean {
    const parsed = webviewToHostSchema.safeParse(message);
    if (!parsed.success) {
      console.warn('[switchboard] dropping invalid outbound message', message, parsed.error.issues);
      return false;
    }
    this.api.postMessage(parsed.data);
    return true;
  }

  getState(): unknown {
    return this.api.getState();
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }
}
