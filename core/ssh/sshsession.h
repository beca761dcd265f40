#pragma once

// libssh's side of the SSH layer: only the layer's own sources include this (libssh is private to it).
#include "ssh/sshhostkey.h"

#include <libssh/libssh.h>

namespace LockScope {

// A session set up as the options say (host, port, user, known_hosts, ~/.ssh/config, the timeout); not connected.
ssh_session newSshSession(const SshOptions &options, int timeoutMs);
// The connected session's host key, checked; a key the options accept (acceptHostKey) is written to known_hosts.
SshHostKey checkSshHostKey(ssh_session session, const SshOptions &options);

} // namespace LockScope
