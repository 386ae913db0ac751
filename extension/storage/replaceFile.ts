/**
 * Writing a shared file whole, so that a reader (another window of this machine) never sees it torn: the text goes to
 * a temporary file beside it (`<name>.<pid>.<random>.tmp`, which storage/runFiles.ts knows to clean up) and is
 * renamed over it. A failed write leaves the file as it was and no temporary file behind.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

export async function replaceFile(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}
