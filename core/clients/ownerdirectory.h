#pragma once

#include "clients/cliententry.h"
#include "clients/tracefindings.h"

#include <QByteArray>
#include <QHash>
#include <QList>

namespace LockScope {

struct LockHolder;

// A connection known to speak for a lock holder: seen sending its owner id or token (a trace), or named after it
// (CLIENT SETNAME carrying the client's UUID).
struct OwnerConnection
{
    enum class Source { Trace, ClientName };
    Source source = Source::Trace;
    QByteArray addr;
    QByteArray node; // empty on a single server
    qint64 clientId = -1; // CLIENT LIST's id, once a listing showed it; -1: never listed
    QByteArray name; // its CLIENT SETNAME name, where it has one
    QByteArray lib; // "redisson 3.52.0" where the server keeps lib-name (7.2+)
    qint64 seenMs = 0; // epoch ms it was last seen speaking for the holder
};

// Whether a holder's connections are still there, as the last CLIENT LIST of their servers says.
struct OwnerPresence
{
    enum class State {
        Unknown, // no connection is known to speak for it (no trace saw it, no name carries it)
        Connected, // at least one of its connections is listed now
        Gone, // every one of its connections has left: the process closed them or died
    };
    State state = State::Unknown;
    QList<OwnerConnection> connections;
    qint64 goneSinceMs = -1; // epoch ms of the first listing without any of them (State::Gone)
    qint64 listedMs = -1; // epoch ms of the listing this is from; -1: none yet
};

// Who each lock holder is: what traces mapped (owner ids, client UUIDs and tokens to the connections that sent them)
// and connection names, checked against CLIENT LIST. Pure: fed with findings and listings, no Redis of its own.
class OwnerDirectory
{
public:
    // A trace's findings: its sightings join what is known (a newer sighting of the same connection replaces the
    // older), and its listing is taken as the latest.
    void addTrace(const TraceFindings &findings);
    // CLIENT LIST of the servers (every node of a cluster) at epochMs. complete: every node answered; a partial
    // listing never makes a connection gone. runId: the server's; a change (a restart) forgets every traced
    // connection, whose ids and ports mean nothing any more.
    void updateClients(const QList<ClientEntry> &clients, qint64 epochMs, bool complete, const QByteArray &runId = {});

    // The holder's connections and whether they are still there: by its owner id, else its client UUID, else its
    // token (a string lock's holder is its token).
    OwnerPresence presence(const LockHolder &holder) const;
    // "orders-service-7 (10.0.3.17:53422)", "10.0.3.17:53422 (+2)", or empty when none is known.
    static QString describe(const OwnerPresence &presence);

    // When a trace last saw this owner id send its unlock (epoch ms, the server's clock); 0: never.
    qint64 lastReleaseMs(const QByteArray &owner) const { return m_releases.value(owner); }

    const QList<ClientEntry> &clients() const { return m_clients; }
    qint64 listedMs() const { return m_listedMs; }
    bool isEmpty() const { return m_known.isEmpty(); }

private:
    struct Known
    {
        OwnerConnection connection;
        bool gone = false;
        qint64 goneSinceMs = -1;
    };
    QList<Known> knownFor(const QByteArray &identity) const;
    void addConnection(const QByteArray &identity, OwnerConnection connection);

    QHash<QByteArray, QList<Known>> m_known; // identity -> its connections
    QHash<QByteArray, qint64> m_releases; // owner id -> its last unlock a trace saw
    QList<ClientEntry> m_clients;
    qint64 m_listedMs = -1;
    QByteArray m_runId;
};

} // namespace LockScope
