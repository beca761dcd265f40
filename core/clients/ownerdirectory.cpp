#include "clients/ownerdirectory.h"

#include "kinds/lockclassifier.h"

#include <QCoreApplication>

namespace LockScope {

namespace {
constexpr qint64 kClockGraceMs = 60 * 1000;

QByteArray libOf(const ClientEntry &c)
{
    if (c.libName.isEmpty())
        return {};
    return c.libVer.isEmpty() ? c.libName : c.libName + ' ' + c.libVer;
}

// The client UUID of a Redisson owner field ("<uuid>:<thread>"), or empty.
QByteArray clientOf(const QByteArray &owner)
{
    if (!isOwnerField(owner))
        return {};
    return owner.left(owner.lastIndexOf(':'));
}
} // namespace

void OwnerDirectory::addConnection(const QByteArray &identity, OwnerConnection connection)
{
    QList<Known> &known = m_known[identity];
    for (Known &k : known) {
        if (k.connection.addr == connection.addr && k.connection.node == connection.node) {
            // The same connection seen again: the newest sighting wins, unless the listing says it is another one.
            if (connection.seenMs >= k.connection.seenMs) {
                const qint64 id = connection.clientId >= 0 ? connection.clientId : k.connection.clientId;
                k.connection = std::move(connection);
                k.connection.clientId = id;
                k.gone = false;
                k.goneSinceMs = -1;
            }
            return;
        }
    }
    known.append({ std::move(connection), false, -1 });
}

void OwnerDirectory::addTrace(const TraceFindings &findings)
{
    if (!findings.runId.isEmpty() && !m_runId.isEmpty() && findings.runId != m_runId) {
        m_known.clear(); // another server run: its connections are other ones
        m_releases.clear();
    }
    if (!findings.runId.isEmpty())
        m_runId = findings.runId;
    for (const TraceFindings::Sighting &s : findings.sightings) {
        if (s.lastReleaseMs > 0 && s.kind == TraceFindings::Sighting::Identity::Owner)
            m_releases[s.identity] = qMax(m_releases.value(s.identity), s.lastReleaseMs);
        OwnerConnection c;
        c.source = OwnerConnection::Source::Trace;
        c.addr = s.addr;
        c.node = s.node;
        c.seenMs = s.lastMs;
        addConnection(s.identity, std::move(c));
    }
    // The trace's own listing tells the ids of the connections it saw, and which were already gone when it ended.
    updateClients(findings.clients, findings.endedMs, findings.partial.isEmpty() && !findings.clients.isEmpty());
}

void OwnerDirectory::updateClients(
    const QList<ClientEntry> &clients, qint64 epochMs, bool complete, const QByteArray &runId)
{
    if (!runId.isEmpty()) {
        if (!m_runId.isEmpty() && runId != m_runId)
            m_known.clear();
        m_runId = runId;
    }
    m_clients = clients;
    m_listedMs = epochMs;
    QHash<QPair<QByteArray, QByteArray>, const ClientEntry *> byAddr;
    for (const ClientEntry &c : m_clients)
        byAddr.insert({ c.node, c.addr }, &c);
    for (auto it = m_known.begin(); it != m_known.end(); ++it) {
        for (Known &k : it.value()) {
            const ClientEntry *listed = byAddr.value({ k.connection.node, k.connection.addr });
            // Ports are reused: a listed connection with another id than the one traced, or one that was opened after
            // the sighting (a minute's grace: MONITOR's times are the server's clock), is a new one.
            bool same = false;
            if (listed && k.connection.clientId >= 0)
                same = listed->id == k.connection.clientId;
            else if (listed)
                same = listed->ageS < 0 || epochMs - listed->ageS * 1000 <= k.connection.seenMs + kClockGraceMs;
            if (same) {
                if (k.connection.clientId < 0)
                    k.connection.clientId = listed->id;
                k.connection.name = listed->name;
                k.connection.lib = libOf(*listed);
                k.gone = false;
                k.goneSinceMs = -1;
            } else if (complete && !k.gone) {
                k.gone = true;
                k.goneSinceMs = epochMs;
            }
        }
    }
    // A connection named after a Redisson client (CLIENT SETNAME carrying its UUID) speaks for it.
    for (const ClientEntry &c : m_clients) {
        if (c.name.size() < 36)
            continue;
        for (int i = 0; i + 36 <= c.name.size(); ++i) {
            const QByteArray candidate = c.name.mid(i, 36);
            if (!isOwnerField(candidate + ":1"))
                continue;
            OwnerConnection oc;
            oc.source = OwnerConnection::Source::ClientName;
            oc.addr = c.addr;
            oc.node = c.node;
            oc.clientId = c.id;
            oc.name = c.name;
            oc.lib = libOf(c);
            oc.seenMs = epochMs;
            addConnection(candidate, std::move(oc));
            break;
        }
    }
}

QList<OwnerDirectory::Known> OwnerDirectory::knownFor(const QByteArray &identity) const
{
    return m_known.value(identity);
}

OwnerPresence OwnerDirectory::presence(const LockHolder &holder) const
{
    OwnerPresence p;
    p.listedMs = m_listedMs;
    QList<Known> known = knownFor(holder.owner);
    if (known.isEmpty()) {
        const QByteArray client = !holder.client.isEmpty() ? holder.client : clientOf(holder.owner);
        if (!client.isEmpty())
            known = knownFor(client);
    }
    if (known.isEmpty())
        return p;
    bool anyListed = false;
    qint64 goneSince = -1;
    for (const Known &k : std::as_const(known)) {
        p.connections << k.connection;
        if (!k.gone)
            anyListed = true;
        else
            goneSince = qMax(goneSince, k.goneSinceMs);
    }
    if (m_listedMs < 0) {
        p.state = OwnerPresence::State::Unknown; // known connections, but no listing says whether they are there
        return p;
    }
    p.state = anyListed ? OwnerPresence::State::Connected : OwnerPresence::State::Gone;
    if (!anyListed)
        p.goneSinceMs = goneSince;
    return p;
}

QString OwnerDirectory::describe(const OwnerPresence &presence)
{
    if (presence.connections.isEmpty())
        return {};
    const OwnerConnection &first = presence.connections.first();
    const QString addr = QString::fromLatin1(first.addr);
    QString text = first.name.isEmpty() ? addr : QStringLiteral("%1 (%2)").arg(QString::fromUtf8(first.name), addr);
    if (presence.connections.size() > 1)
        text += QStringLiteral(" (+%1)").arg(presence.connections.size() - 1);
    return text;
}

} // namespace LockScope
