/**
 * What a transcript webview loads (the webview bundle, the codicons and transcript.css) and the only folders it may
 * load anything from (dist/ and media/): the sidebar view and the editor tabs load the same page.
 */
import * as vscode from 'vscode';
import { renderWebviewHtml } from '../webviewHtml';

/** Sets `webview`'s options and HTML to the transcript page. */
export function loadTranscriptWebview(webview: vscode.Webview, extensionUri: vscode.Uri): void {
  const distUri = vscode.Uri.joinPath(extensionUri, 'dist');
  const mediaUri = vscode.Uri.joinPath(extensionUri, 'media');
  webview.options = { enableScripts: true, localResourceRoots: [distUri, mediaUri] };
  webview.html = renderWebviewHtml({
    cspSource: webview.cspSource,
    scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'webview.js')).toString(),
    styleUris: [
      webview.asWebviewUri(vscode.Uri.joinPath(distUri, 'codicons', 'codicon.css')).toString(),
      webview.asWebviewUri(vscode.Uri.joinPath(mediaUri, 'transcript.css')).toString(),
    ],
    title: 'Agent transcript',
  });
}
