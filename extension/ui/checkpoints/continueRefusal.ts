/**
 * Why *Continue from here* (issue #26) cannot be used on a run now, in words for the checkpoint marker's tooltip and
 * the error of the palette command (undefined: it can): the new run starts on the run's own connection, which must
 * start runs from the editor and be connected. A daemon without file checkpoints here (hyperhive) shows no markers;
 * the commands say why (FileRewinds.checkpointsOf). Pure: read by the core's run header and the lazy feature alike.
 */
import type { ModelState, RunInfo } from '../../model/modelTypes';

export function continueRefusal(state: ModelState, run: RunInfo): string | undefined {
  const connection = state.connections.get(run.connectionId);
  if (connection === undefined) {
    return 'its connection is no longer set up';
  }
  if (!connection.capabilities.includes('run.start')) {
    return `${connection.name} does not start runs from the editor, so the conversation cannot go on in a new run (Rewind files to here still works)`;
  }
  if (connection.state.kind !== 'connected') {
    return `${connection.name} is not connected: connect it to continue in a new run`;
  }
  return undefined;
}
