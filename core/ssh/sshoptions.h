#pragma once

#include "base/rediserror.h"

#include <QByteArray>
#include <QString>

namespace LockScope {

// How to reach Redis through an SSH host (a bastion): every connection of the profile (the server, its cluster nodes,
// its sentinels, the subscribers) becomes a direct-tcpip channel of one SSH session to that host, which connects on
// to the address the connection names, as that host sees it (docs/ssh.md).
struct SshOptions
{
    QString host; // empty: no tunnel
    quint16 port = 22;
    QString user; // empty: the local user name (or what ~/.ssh/config says)
    // A private key file; empty: the agent ($SSH_AUTH_SOCK), then the default keys (~/.ssh/id_*), as ssh does.
    QString keyFile;
    QByteArray password; // password authentication, tried after the keys; never logged, never on a command line
    QString knownHostsFile; // empty: ~/.ssh/known_hosts
    // The fingerprint ("SHA256:...") of a host key that is not in known_hosts and that the person confirmed after
    // seeing it: accepted once and written to known_hosts. A changed key is never accepted.
    QByteArray acceptHostKey;
    int keepAliveSeconds = 15; // 0: none
    bool readSshConfig = true; // ~/.ssh/config (HostName, Port, User, IdentityFile, ProxyJump)

    bool isSet() const { return !host.isEmpty(); }
    // "user@host:port" (the port only when it is not 22): what the connection bar and the audit log show.
    QString display() const;
    // What decides whether two connections may share one SSH session (not the secrets).
    QString sessionKey() const;

    // Parses USER@HOST[:PORT] (also HOST, and [v6]:PORT).
    static SshOptions parseTarget(const QString &text, RedisError *error = nullptr);
};

// The SSH session as a connection whose channel ended asks about it.
struct SshSessionStatus
{
    bool up = false;
    RedisError error; // why it is down (none: never tried, or closed because nothing used it)
};

} // namespace LockScope
