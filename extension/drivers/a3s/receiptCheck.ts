/**
 * Receipt verification (WIRE.md 3.5): a receipt must echo the command's action, request_id and identity and carry
 * the digest the client computed itself over the canonical command. Anything else means the answer is not for
 * this command (or the harness re-serialised something different), which is a protocol error, not a retry.
 */
import { A3S_SCHEMA, A3sReceiptSchema, sameRunIdentity } from '../../protocol/a3s';
import type { A3sCommand, A3sReceipt } from '../../protocol/a3s';
import { A3sError, A3sReceiptMismatchError } from './a3sErrors';

/** Parses and checks a 200 command answer; throws {@link A3sReceiptMismatchError} naming the first bad field. */
export function checkA3sReceipt(command: A3sCommand, expectedDigest: string, body: unknown): A3sReceipt {
  const parsed = A3sReceiptSchema.safeParse(body);
  if (!parsed.success) {
    throw new A3sError('protocol', `A3S receipt has an unexpected shape: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const receipt = parsed.data;
  if (receipt.schema !== A3S_SCHEMA.receipt) {
    throw new A3sReceiptMismatchError('schema', A3S_SCHEMA.receipt, receipt.schema);
  }
  if (receipt.action !== command.action) {
    throw new A3sReceiptMismatchError('action', command.action, receipt.action);
  }
  if (receipt.request_id !== command.request.request_id) {
    throw new A3sReceiptMismatchError('request_id', command.request.request_id, receipt.request_id);
  }
  if (!sameRunIdentity(receipt.identity, command.request.identity)) {
    throw new A3sReceiptMismatchError('identity', command.request.identity, receipt.identity);
  }
  if (receipt.command_digest !== expectedDigest) {
    throw new A3sReceiptMismatchError('command_digest', expectedDigest, receipt.command_digest);
  }
  return receipt;
}
