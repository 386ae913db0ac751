/**
 * Webview entry point (bundled to dist/webview.js). Acquires the VS Code API once, validates every inbound message
 * against the contract (invalid ones are dropped with a warning), dispatches it, and says `ready` so the host sends
 * the first snapshot.
 */
import './zodConfig';
import { hostToWebviewSchema } from '../extension/protocol/webviewMessages';
import type { HostToWebview } from '../extension/protocol/webviewMessages';
import { App } from './app';
import { UiStateStore } from './uiState';
import { HostChannel } from './vscodeApi';

const channel = HostChannel.acquire();
const post = channel.post.bind(channel);
const root = document.getElementById('app') ?? document.body.appendChild(document.createElement('div'));
const app = new App(root, new UiStateStore(channel), post);

function dispatch(message: HostToWebview): void {
  switch (message.type) {
    case 'snapshot':
      app.snapshot(message);
      return;
    case 'patches':
      app.patches(message);
      return;
    case 'run':
      app.run(message);
      return;
    case 'focusComposer':
      app.focusComposer(message.insert);
      return;
    case 'draft':
      app.draft(message);
      return;
    case 'revealItem':
      app.revealItem(message);
      return;
    case 'items':
      app.items(message);
      return;
    case 'findResult':
      app.findResult(message);
      return;
    case 'openFind':
      app.openFind();
      return;
    case 'toast':
      app.toast(message);
      return;
    case 'changeSet':
      app.showChangeSet(message);
      return;
    case 'reviewNotes':
      app.showNotes(message);
      return;
    case 'reviewMarks':
      app.reviewMarks(message);
      return;
    default: {
      const _exhaustive: never = message;
      return _exhaustive;
    }
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = hostToWebviewSchema.safeParse(event.data);
  if (!parsed.success) {
    console.warn('[switchboard] dropping invalid host message', parsed.error.issues.slice(0, 5));
    return;
  }
  try {
    dispatch(parsed.data);
  } catch (error) {
    // A rendering bug must not take the whole view down: report it and ask for a clean snapshot.
    console.error('[switchboard] failed to handle host message', error);
    app.recover(String(error));
  }
});

post({ type: 'ready' });
