// A TCP port free on 127.0.0.1 right now (the OS picks it; the listener is closed again before it resolves).
import { createServer } from 'node:net';

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
