/**
 * A prompt as ACP content blocks: the text as typed, plus each `@file` mention that names a file of the workspace
 * (`@src/app.ts`, or a line range `@src/app.ts:10-20`) as context the agent can use — embedded with its text (as the
 * editor has it, unsaved edits included) when the agent accepts embedded context, else as a resource link. A
 * mention that names nothing stays plain text. At most a few files are attached, each capped, so a stray `@` in a
 * long paste cannot send the agent megabytes.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ContentBlock, PromptCapabilities } from '@agentclientprotocol/sdk';
import type { WorkspaceAccess } from '../kit/workspaceAccess';

const MENTION = /(?:^|\s)@([\w./-]+?)(?::(\d+)(?:-(\d+))?)?(?=$|[\s,;:!?)])/g;
const MAX_FILES = 8;
const MAX_CHARS = 200_000;

export interface Mention {
  readonly path: string;
  readonly line?: number;
  readonly endLine?: number;
}

/** The mentions of `text` that name a file inside `cwd` (absolute paths), in order, without repeats. */
export function mentionsOf(text: string, cwd: string): Mention[] {
  const out: Mention[] = [];
  for (const m of text.matchAll(MENTION)) {
    const path = resolve(cwd, m[1]!);
    const rel = relative(cwd, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || !existsSync(path) || !statSync(path).isFile()) {
      continue;
    }
    if (out.some((o) => o.path === path && o.line === (m[2] ? Number(m[2]) : undefined))) {
      continue;
    }
    out.push({ path, ...(m[2] ? { line: Number(m[2]) } : {}), ...(m[3] ? { endLine: Number(m[3]) } : {}) });
    if (out.length === MAX_FILES) {
      break;
    }
  }
  return out;
}

export async function promptBlocks(text: string, cwd: string, capabilities: PromptCapabilities | undefined, workspace: WorkspaceAccess | undefined): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [{ type: 'text', text }];
  for (const mention of mentionsOf(text, cwd)) {
    const uri = pathToFileURL(mention.path).href;
    const name = relative(cwd, mention.path);
    if (capabilities?.embeddedContext === true && workspace) {
      const limit = mention.line !== undefined ? (mention.endLine ?? mention.line) - mention.line + 1 : undefined;
      const content = await workspace.readText(mention.path, mention.line, limit, cwd).catch(() => undefined);
      if (content !== undefined) {
        blocks.push({ type: 'resource', resource: { uri: mention.line !== undefined ? `${uri}#L${mention.line}` : uri, text: content.slice(0, MAX_CHARS), mimeType: 'text/plain' } });
        continue;
      }
    }
    blocks.push({ type: 'resource_link', uri, name });
  }
  return blocks;
}
