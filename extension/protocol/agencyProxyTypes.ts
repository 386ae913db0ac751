/**
 * AgencyProxy protocol 0.3 — version, limits, the known enum strings and the data types shared by client and server
 * frames (WIRE.md §1.3, §1.5, §1.8, §1.13; `agency_proxy_protocol.rs`). RunRequest / RunSnapshot / ProviderStatus /
 * ProviderAccountUsage are camelCase on the wire (§1.14).
 */
import * as z from 'zod';
import { nullableString, u16, uint } from './agencyProxyPrimitives';

export const PROTOCOL_VERSION = { major: 0, minor: 3 } as const;
/** Largest JSON payload of one frame; the frame length adds the kind byte. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** First minor that knows `shutdown{mode}` (§1.12). */
export const SHUTDOWN_MIN_MINOR = 3;

export const CAPABILITIES = [
  'event_replay', 'live_injection', 'approvals', 'cancellation', 'provider_detection', 'lifecycle_control',
] as const;
export const ERROR_CODES = [
  'incompatible_version', 'protocol_violation', 'not_found', 'not_implemented', 'conflict', 'internal',
] as const;
export type KnownErrorCode = (typeof ERROR_CODES)[number];
export const ACTIVE_RUN_STATES = ['starting', 'running', 'waiting_approval', 'finishing'] as const;
export const TERMINAL_RUN_STATES = ['completed', 'failed', 'canceled', 'interrupted'] as const;
export const PROVIDERS = ['claude', 'codex', 'copilot'] as const;
export const PERMISSIONS = ['read_only', 'read-only', 'plan', 'edit', 'auto', 'bypass'] as const;
export const APPROVAL_DECISIONS = ['allow_once', 'allow_similar', 'deny'] as const;
export const SHUTDOWN_MODES = ['drain', 'terminate'] as const;

/** Run states are kept as strings so an unknown future state survives parsing (it is treated as active). */
export function isTerminalRunState(state: string): boolean {
  return (TERMINAL_RUN_STATES as readonly string[]).includes(state);
}

// ---------------------------------------------------------------------------------------------------------------
// Shared data types

export const ProtocolVersionSchema = z.object({ major: u16, minor: u16 });
export type ProtocolVersion = z.infer<typeof ProtocolVersionSchema>;

export const ApprovalDecisionSchema = z.enum(APPROVAL_DECISIONS);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
export const ShutdownModeSchema = z.enum(SHUTDOWN_MODES);
export type ShutdownMode = z.infer<typeof ShutdownModeSchema>;

/** What the client asks the daemon to run (camelCase). Absent Option fields read as null, absent maps as empty. */
export const RunRequestSchema = z.object({
  provider: z.string(),
  model: z.string(),
  prompt: z.string(),
  isCommand: z.boolean().default(false),
  system: nullableString,
  permission: z.string(),
  effort: nullableString,
  extraThinking: z.boolean().nullable().default(null),
  approvals: z.boolean(),
  interactive: z.boolean(),
  workspaceRoots: z.array(z.string()),
  resumeSessionId: nullableString,
  binary: nullableString,
  environment: z.record(z.string(), z.string()).default({}),
  uncheckedArgs: z.array(z.string()).default([]),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;

/** One run as the daemon sees it (camelCase). `state` keeps unknown strings. */
export const RunSnapshotSchema = z.object({
  runId: z.string(),
  state: z.string(),
  provider: z.string(),
  model: z.string(),
  providerSessionId: nullableString,
  latestSequence: uint,
  acknowledgedSequence: uint,
  workspaceRoots: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type RunSnapshot = z.infer<typeof RunSnapshotSchema>;

/** Result of probing one provider CLI (camelCase). */
export const ProviderStatusSchema = z.object({
  provider: z.string(),
  installed: z.boolean(),
  version: nullableString,
  outdated: z.boolean(),
  authState: z.string(),
  detail: z.string(),
  authMethod: nullableString,
  account: nullableString,
  plan: nullableString,
  loginHint: z.string(),
});
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

/** Account usage of one provider (camelCase); `usage` is provider-specific, show it raw. */
export const ProviderAccountUsageSchema = z.object({
  provider: z.string(),
  supported: z.boolean(),
  usage: z.unknown().optional().transform((v) => (v === undefined ? null : v)),
  error: nullableString,
});
export type ProviderAccountUsage = z.infer<typeof ProviderAccountUsageSchema>;
