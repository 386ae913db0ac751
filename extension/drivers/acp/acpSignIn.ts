/**
 * Signing in to and out of an ACP agent: the sign-in (the auth method and the values of its variables) is kept in the
 * connection's secret store (acpLaunch.ts), and the agent restarts so it starts with it — or, after *Sign Out*,
 * without it. A connection that is not running is not started by a sign-out.
 */
import { DriverError } from '../kit/errors';
import type { DriverSecrets } from '../kit/workspaceAccess';
import type { AuthChoice, ForgottenSignIn } from './acpLaunch';
import { forgetSignIn, storeAuthChoice } from './acpLaunch';

export interface AcpSignInHost {
  readonly secrets: DriverSecrets;
  /** Whether the agent is running now. */
  isConnected(): boolean;
  restart(): Promise<void>;
}

export class AcpSignIn {
  constructor(private readonly host: AcpSignInHost) {}

  async signIn(method: AuthChoice, values: Readonly<Record<string, string>>): Promise<void> {
    await storeAuthChoice(this.host.secrets, method, values);
    await this.host.restart();
    if (!this.host.isConnected()) {
      throw new DriverError('The agent did not start again after the sign-in.');
    }
  }

  async signOut(methods: readonly AuthChoice[]): Promise<ForgottenSignIn & { readonly restarted: boolean }> {
    const forgotten = await forgetSignIn(this.host.secrets, methods);
    const restarted = this.host.isConnected() && (forgotten.methodId !== undefined || forgotten.variables.length > 0);
    if (restarted) {
      await this.host.restart();
    }
    return { ...forgotten, restarted };
  }
}
