#!/bin/bash
# openssl for the verify-line test: `s_client -connect HOST:443` goes to the loopback port that serves
# the fixture hosts (VERIFY_HTTPS_PORT); every other argument and command is passed on unchanged.
args=()
prev=
for a in "$@"; do
  if [ "$prev" = "-connect" ] && [ -n "$VERIFY_HTTPS_PORT" ] && [ "${a##*:}" = 443 ]; then
    a="127.0.0.1:$VERIFY_HTTPS_PORT"
  fi
  args+=("$a")
  prev="$a"
done
exec /usr/bin/openssl "${args[@]}"
