#include "clients/tracereader.h"

#include "clients/tracesession.h"
#include "kinds/lockclassifier.h"
#include "kinds/locknames.h"
#include "redis/monitorline.h"

#include <algorithm>

namespace LockScope {

namespace {

using Identity = TraceFindings::Sighting::Identity;

// Parts joined with their lengths: identities are arbitrary bytes, so no separator could be trusted.
QByteArray compositeKey(std::initializer_list<QByteArray> parts)
{
    QByteArray key;
    for (const QByteArray &part : parts)
        key += QByteArray::number(part.size()) + ':' + part;
    return key;
}

bool isScript(const QByteArray &command)
{
    return command == "EVAL" || command == "EVALSHA" || command == "EVAL_RO" || command == "EVALSHA_RO"
        || command == "FCALL" || command == "FCALL_RO";
}

bool hasNx(const QList<QByteArray> &argv)
{
    for (qsizetype i = 3; i < argv.size(); ++i)
        if (argv.at(i).compare("NX", Qt::CaseInsensitive) == 0)
            return true;
    return false;
}

void addKeys(QList<QByteArray> *to, const QList<QByteArray> &keys)
{
    for (const QByteArray &key : keys) {
        if (to->size() >= TraceReader::maxKeysPerSighting)
            return;
        if (!to->contains(key))
            to->append(key);
    }
}

} // namespace

TraceReader::TraceReader(int maxEntries)
    : m_maxEntries(maxEntries)
{ }

void TraceReader::read(const QByteArray &node, const QByteArray &line)
{
    ++m_lines;
    m_bytes += line.size() + 3; // as sent: "+", the line, CRLF
    MonitorLine parsed;
    if (parseMonitorLine(line, &parsed))
        read(node, parsed);
}

void TraceReader::read(const QByteArray &node, const MonitorLine &line)
{
    if (line.fromScript() || line.argv.isEmpty())
        return;
    const qint64 ms = line.timestampUs / 1000;
    const QByteArray command = line.argv.first().toUpper();
    const QList<QByteArray> &argv = line.argv;
    if (isScript(command)) {
        readScript(node, line, ms);
        return;
    }
    const bool setNx = command == "SET" && argv.size() >= 4 && hasNx(argv);
    if (!setNx && !(command == "SETNX" && argv.size() == 3))
        return;
    const QByteArray &key = argv.at(1);
    const QByteArray &token = argv.at(2);
    if (token.isEmpty() || token.size() > maxTokenBytes)
        return;
    sight(Identity::Token, token, node, line.client, { key }, ms);
    attempt(node, line.client, key, token, ms);
}

void TraceReader::readScript(const QByteArray &node, const MonitorLine &line, qint64 ms)
{
    const QList<QByteArray> &argv = line.argv;
    bool ok = false;
    const qint64 numkeys = argv.size() >= 3 ? argv.at(2).toLongLong(&ok) : -1;
    if (!ok || numkeys < 0 || 3 + numkeys > argv.size())
        return;
    const QList<QByteArray> keys = argv.mid(3, numkeys);
    const QList<QByteArray> args = argv.mid(3 + numkeys);
    // Each identity once per command, however many times its arguments repeat it.
    QList<QByteArray> owners;
    for (const QByteArray &arg : args)
        if (isOwnerField(arg) && !owners.contains(arg))
            owners << arg;
    // Redisson's batched renewal: KEYS[i] is held by ARGV[i + 1], the i-th owner.
    const bool paired = keys.size() > 1 && owners.size() == keys.size();
    QList<QPair<QByteArray, QList<QByteArray>>> clients; // a client's threads share its UUID: their keys together
    for (qsizetype i = 0; i < owners.size(); ++i) {
        const QList<QByteArray> ownerKeys = paired ? QList<QByteArray> { keys.at(i) } : keys;
        sight(Identity::Owner, owners.at(i), node, line.client, ownerKeys, ms);
        if (keys.size() == 1)
            attempt(node, line.client, keys.first(), owners.at(i), ms);
        QByteArray client;
        LockNames::splitOwner(owners.at(i), &client, nullptr);
        const auto same
            = std::find_if(clients.begin(), clients.end(), [&client](const auto &c) { return c.first == client; });
        if (same == clients.end())
            clients.append({ client, ownerKeys });
        else
            addKeys(&same->second, ownerKeys);
    }
    for (const auto &[client, clientKeys] : std::as_const(clients))
        sight(Identity::Client, client, node, line.client, clientKeys, ms);
    // An unlock names the lock's wake-up channel among its keys; an acquire or a renewal never does.
    const bool release = std::any_of(keys.cbegin(), keys.cend(), [](const QByteArray &k) {
        return k.startsWith("redisson_lock__channel") || k.startsWith("redisson_rwlock:")
            || k.startsWith("redisson_rwlock_channel");
    });
    if (release)
        for (const QByteArray &owner : std::as_const(owners))
            noteRelease(owner, node, line.client, ms);
    if (keys.size() != 1)
        return;
    QList<QByteArray> tokens;
    for (const QByteArray &arg : args) {
        if (arg.isEmpty() || arg.size() > maxTokenBytes || isCounterValue(arg) || isOwnerField(arg)
            || tokens.contains(arg))
            continue;
        tokens << arg;
        sight(Identity::Token, arg, node, line.client, keys, ms);
    }
}

void TraceReader::sight(Identity kind, const QByteArray &identity, const QByteArray &node, const QByteArray &addr,
    const QList<QByteArray> &keys, qint64 ms)
{
    const QByteArray id = compositeKey({ QByteArray::number(int(kind)), node, addr, identity });
    const auto it = m_sightingIndex.constFind(id);
    if (it != m_sightingIndex.cend()) {
        TraceFindings::Sighting &s = m_sightings[*it];
        ++s.commands;
        s.firstMs = qMin(s.firstMs, ms);
        s.lastMs = qMax(s.lastMs, ms);
        addKeys(&s.keys, keys);
        return;
    }
    if (m_sightings.size() >= m_maxEntries) {
        m_sightingsFull = true;
        return;
    }
    TraceFindings::Sighting s;
    s.kind = kind;
    s.identity = identity;
    s.addr = addr;
    s.node = node;
    s.commands = 1;
    s.firstMs = s.lastMs = ms;
    addKeys(&s.keys, keys);
    m_sightingIndex.insert(id, m_sightings.size());
    m_sightings << s;
}

void TraceReader::noteRelease(const QByteArray &owner, const QByteArray &node, const QByteArray &addr, qint64 ms)
{
    const auto it
        = m_sightingIndex.constFind(compositeKey({ QByteArray::number(int(Identity::Owner)), node, addr, owner }));
    if (it != m_sightingIndex.cend())
        m_sightings[*it].lastReleaseMs = qMax(m_sightings[*it].lastReleaseMs, ms);
}

void TraceReader::attempt(
    const QByteArray &node, const QByteArray &addr, const QByteArray &key, const QByteArray &identity, qint64 ms)
{
    const QByteArray id = compositeKey({ node, key, identity });
    const auto it = m_retrierIndex.constFind(id);
    if (it != m_retrierIndex.cend()) {
        TraceFindings::Retrier &r = m_retriers[*it];
        ++r.attempts;
        if (ms >= r.lastMs) {
            r.lastMs = ms;
            r.addr = addr; // the latest attempt's connection
        }
        r.firstMs = qMin(r.firstMs, ms);
        return;
    }
    if (m_retriers.size() >= m_maxEntries) {
        m_retriersFull = true;
        return;
    }
    TraceFindings::Retrier r;
    r.addr = addr;
    r.node = node;
    r.key = key;
    r.identity = identity;
    r.attempts = 1;
    r.firstMs = r.lastMs = ms;
    m_retrierIndex.insert(id, m_retriers.size());
    m_retriers << r;
}

void TraceReader::fill(TraceFindings *findings) const
{
    findings->sightings = m_sightings;
    findings->retriers.clear();
    for (const TraceFindings::Retrier &r : m_retriers)
        if (r.attempts >= 2)
            findings->retriers << r;
    findings->cost.lines = m_lines;
    findings->cost.bytes = m_bytes;
    if (m_sightingsFull)
        findings->partial
            << TraceSession::tr("more than %1 identities were seen: later ones were not kept").arg(m_maxEntries);
    if (m_retriersFull)
        findings->partial << TraceSession::tr("more than %1 acquire attempts were seen: later ones were not counted")
                                 .arg(m_maxEntries);
}

} // namespace LockScope
