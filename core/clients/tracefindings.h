#pragma once

#include "clients/cliententry.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

namespace LockScope {

// What a trace (MONITOR for a bounded time) saw of the lock commands on a server: which connection sent each owner
// id, client id and token, and who only retries. Plain data: TraceSession fills it, TraceStore keeps it between the
// CLI's runs, OwnerDirectory answers from it.
struct TraceFindings
{
    // One identity seen on one connection. identity: a Redisson owner field ("<uuid>:<thread>"), a Redisson client
    // UUID alone (every thread of one client shares its connections), or a string lock's token; kind says which.
    struct Sighting
    {
        enum class Identity { Owner, Client, Token };
        Identity kind = Identity::Owner;
        QByteArray identity;
        QByteArray addr; // the connection, as MONITOR names it
        QByteArray node; // the server it was sent to; empty on a single server
        QList<QByteArray> keys; // the lock keys those commands named (at most a few)
        qint64 commands = 0; // how many commands carried it
        qint64 firstMs = 0; // epoch ms, the server's clock (MONITOR's timestamps)
        qint64 lastMs = 0;
        // An owner's unlock: a script carrying its owner id and naming a wake-up channel among its keys (Redisson's
        // unlock publishes there; its acquire and renewal do not). When the last was sent; 0: none seen.
        qint64 lastReleaseMs = 0;
    };
    // A connection that sends the same acquire for the same key again and again (redsync, redis-py, node-redlock poll
    // with SET NX; Redisson re-runs its acquire script after every wake-up): a waiter, named by its connection.
    struct Retrier
    {
        QByteArray addr;
        QByteArray node;
        QByteArray key;
        QByteArray identity; // the token or owner id it tries to take the key with
        qint64 attempts = 0;
        qint64 firstMs = 0;
        qint64 lastMs = 0;
        double perSecond() const { return lastMs > firstMs ? (attempts - 1) * 1000.0 / double(lastMs - firstMs) : 0; }
    };
    // What the trace cost the server, measured while it ran (INFO's CPU figures before and after, and what MONITOR
    // sent): the price of the next one.
    struct Cost
    {
        qint64 lines = 0; // MONITOR lines read
        qint64 bytes = 0;
        qint64 serverCpuMs = -1; // used_cpu_user + used_cpu_sys over the trace, every node summed; -1: not read
        qint64 wallMs = 0;
    };

    qint64 startedMs = 0; // epoch ms
    qint64 endedMs = 0;
    QByteArray runId; // the server's run_id (INFO server; a cluster's first node): a restart voids the connections
    QList<QByteArray> nodes; // every server traced
    QList<Sighting> sightings;
    QList<Retrier> retriers;
    QList<ClientEntry> clients; // CLIENT LIST at the end of the trace, every node
    // The nodes (as in nodes) whose CLIENT LIST was read: a connection of another node is neither there nor gone.
    QList<QByteArray> listedNodes;
    Cost cost;
    QStringList partial; // why it did not see everything ("node 10.0.0.3:7001 down", "CLIENT LIST denied")
};

} // namespace LockScope
