/**
 * Pretty JSON for display (tool input, approval detail, raw items). Output goes into Text nodes, so it only needs to
 * be readable and bounded, not escaped. Never throws: odd values become a placeholder.
 */
const MAX_CHARS = 200_000;

export function prettyJson(value: unknown, maxChars = MAX_CHARS): string {
  let text: string;
  if (value === undefined) {
    return '';
  }
  if (typeof value === 'string') {
    text = value;
  } else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      text = '[unserializable value]';
    }
  }
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n… (${text.length - maxChars} more characters)` : text;
}

/** A one-line preview of a tool input: the most telling string field (command, path, …) or compact JSON. */
export function inputPreview(value: unknown, maxChars = 120): string {
  let text = '';
  if (typeof value === 'string') {
    text = value;
  } else if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const key of ['command', 'cmd', 'path', 'file_path', 'filePath', 'file', 'url', 'query', 'pattern', 'description']) {
      const field = record[key];
      if (typeof field === 'string' && field) {
        text = field;
        break;
      }
      if (Array.isArray(field) && field.every((part) => typeof part === 'string')) {
        text = field.join(' ');
        break;
      }
    }
    if (!text) {
      text = prettyJson(value, maxChars * 2).replace(/\s+/g, ' ');
    }
  } else if (value !== undefined && value !== null) {
    text = prettyJson(value, maxChars * 2).replace(/\s+/g, ' ');
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > maxChars ? `${text.slice(0, maxChars - 1)}…` : text;
}

/** Counts `\n` in `text` (O(length of text)); used on chunks to keep line counts incremental. */
export function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    count++;
  }
  return count;
}
