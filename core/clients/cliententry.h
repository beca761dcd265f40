#pragma once

#include <QByteArray>
#include <QList>

namespace LockScope {

// One connection as CLIENT LIST shows it: who it is (its name, the library that says so where the server keeps
// lib-name and lib-ver, 7.2+), where from, how old and how idle. Fields the server does not send stay empty or -1.
struct ClientEntry
{
    qint64 id = -1; // never reused while the server runs: tells a reconnect on the same port from the same connection
    QByteArray addr; // "10.0.3.17:53422": the peer, as MONITOR names it
    QByteArray laddr; // the server's side (6.2+)
    QByteArray name; // CLIENT SETNAME's; empty: none
    QByteArray libName; // lib-name (7.2+)
    QByteArray libVer; // lib-ver (7.2+)
    QByteArray user; // the ACL user (6.0+)
    qint64 ageS = -1;
    qint64 idleS = -1;
    int db = -1;
    QByteArray flags;
    QByteArray cmd; // the last command it ran
    int sub = -1; // channel subscriptions
    int psub = -1;
    int ssub = -1; // shard channel subscriptions (7.0+)
    QByteArray node; // the server that listed it (a cluster node's address); empty on a single server

    // "redisson 3.52.0", "go-redis", or empty.
    QByteArray lib() const;
};

// Parses CLIENT LIST's reply: one connection a line, space-separated key=value pairs, in any order and with keys this
// version does not know. A line without id= and addr= is skipped, never guessed at.
QList<ClientEntry> parseClientList(const QByteArray &reply, const QByteArray &node = {});

} // namespace LockScope
