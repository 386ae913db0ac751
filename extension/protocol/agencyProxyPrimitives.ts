/**
 * The JSON scalars every AgencyProxy section reads (`agency_proxy_protocol.rs` integer and `Option<String>` fields).
 * Shared by the section modules only: `agencyProxy.ts` does not re-export them.
 */
import * as z from 'zod';

/** A `u64` counter or id (sequence numbers, request ids). */
export const uint = z.number().int().nonnegative();
/** A `u16` version part. */
export const u16 = z.number().int().min(0).max(0xffff);
/** An `Option<String>`: absent and `null` both read as null. */
export const nullableString = z.string().nullable().default(null);
