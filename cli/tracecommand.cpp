#include "tracecommand.h"

#include "terminationwatcher.h"
#include "texttable.h"

#include "clients/tracesession.h"
#include "clients/tracestore.h"
#include "kinds/lockclassifier.h"
#include "models/locktexts.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <cstdio>
#include <memory>

namespace LockScope::Cli {

namespace {

using Identity = TraceFindings::Sighting::Identity;

const char *kindId(Identity kind)
{
    return kind == Identity::Owner ? "owner" : kind == Identity::Client ? "client" : "token";
}

QByteArray placeKey(const QByteArray &node, const QByteArray &addr)
{
    return node + '\n' + addr;
}

QString isoTime(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODateWithMs);
}

// What the findings say of the connections: each by node and address, and which nodes were listed at all.
struct Listing
{
    explicit Listing(const TraceFindings &f)
    {
        for (const ClientEntry &c : f.clients)
            byPlace.insert(placeKey(c.node, c.addr), &c);
        cluster = f.nodes.size() > 1;
        for (const QByteArray &n : f.listedNodes)
            listed.insert(cluster ? n : QByteArray());
    }
    const ClientEntry *find(const QByteArray &node, const QByteArray &addr) const
    {
        return byPlace.value(placeKey(node, addr));
    }
    // true: still connected; false: gone; nullopt: that node's CLIENT LIST was not read.
    std::optional<bool> connected(const QByteArray &node, const QByteArray &addr) const
    {
        if (!listed.contains(node))
            return std::nullopt;
        return find(node, addr) != nullptr;
    }

    QHash<QByteArray, const ClientEntry *> byPlace;
    QSet<QByteArray> listed;
    bool cluster = false;
};

// The sightings of one identity: every connection that sent it, and the keys they named.
struct Owner
{
    Identity kind;
    QByteArray identity;
    QList<QByteArray> keys;
    QList<const TraceFindings::Sighting *> sightings;
};

QList<Owner> owners(const TraceFindings &f)
{
    QList<Owner> out;
    QHash<QByteArray, qsizetype> index;
    for (const TraceFindings::Sighting &s : f.sightings) {
        const QByteArray id = QByteArray::number(int(s.kind)) + ':' + s.identity;
        auto it = index.constFind(id);
        if (it == index.cend()) {
            it = index.insert(id, out.size());
            out << Owner { s.kind, s.identity, {}, {} };
        }
        Owner &o = out[*it];
        o.sightings << &s;
        for (const QByteArray &k : s.keys)
            if (!o.keys.contains(k))
                o.keys << k;
    }
    std::sort(out.begin(), out.end(), [](const Owner &a, const Owner &b) {
        return a.kind != b.kind ? int(a.kind) < int(b.kind) : a.identity < b.identity;
    });
    return out;
}

QJsonValue textOrNull(const QByteArray &bytes)
{
    return bytes.isEmpty() ? QJsonValue() : QJsonValue(Output::jsonText(bytes));
}

} // namespace

void TraceCommand::start()
{
    if (m_parser.isSet(QStringLiteral("seconds"))) {
        bool ok = false;
        m_seconds = m_parser.value(QStringLiteral("seconds")).toInt(&ok);
        if (!ok || m_seconds < 1 || m_seconds > int(TraceSession::maxDurationMs / 1000)) {
            m_out.error(tr("trace takes --seconds N from 1 to 300 (how long MONITOR runs; default 10)"));
            finish(ExitUsage);
            return;
        }
    }
    auto *router = new RedisRouter(m_connection, this);
    m_session = new TraceSession(router, qint64(m_seconds) * 1000, this);
    connect(m_session, &TraceSession::started, this, [this] {
        // On standard error in both modes, and always this wording: scripts and tests wait for "tracing ".
        const QList<QByteArray> nodes = m_session->nodes();
        QStringList names;
        for (const QByteArray &n : nodes)
            names << QString::fromUtf8(n);
        const QString text = nodes.size() == 1
            ? tr("tracing %1 for %2 s: MONITOR copies every command this server runs to LockScope while it runs")
                  .arg(names.first())
                  .arg(m_seconds)
            : tr("tracing %1 servers (%2) for %3 s: MONITOR copies every command these servers run to LockScope "
                 "while it runs")
                  .arg(nodes.size())
                  .arg(names.join(QStringLiteral(", ")))
                  .arg(m_seconds);
        std::fputs((text + QLatin1Char('\n')).toLocal8Bit().constData(), stderr);
        std::fflush(stderr);
    });
    connect(m_session, &TraceSession::finished, this,
        [this, router](const TraceFindings &findings, const RedisError &error) {
            if (error.isError()) {
                finish(m_out.fail(error));
                return;
            }
            auto kept = std::make_shared<TraceFindings>(findings);
            QString saveError;
            if (!TraceStore::save(m_connection, *kept, &saveError))
                m_out.error(tr("warning: the findings could not be kept in %1 (%2)")
                                .arg(TraceStore::path(m_connection), saveError));
            // A Redisson holder's renewals repeat like a waiter's acquires: an owner that holds the key it "retries"
            // is its holder, not a waiter.
            QList<qsizetype> owned;
            for (qsizetype i = 0; i < kept->retriers.size(); ++i)
                if (isOwnerField(kept->retriers.at(i).identity))
                    owned << i;
            if (owned.isEmpty()) {
                print(*kept);
                return;
            }
            auto left = std::make_shared<qsizetype>(owned.size());
            auto holders = std::make_shared<QSet<qsizetype>>();
            for (const qsizetype i : owned) {
                const TraceFindings::Retrier &r = kept->retriers.at(i);
                router->command({ "HEXISTS", r.key, r.identity }, [this, kept, left, holders, i](const RedisResult &x) {
                    if (x.ok() && x.value.isInteger() && x.value.toInteger() == 1)
                        holders->insert(i);
                    if (--*left > 0)
                        return;
                    QList<TraceFindings::Retrier> waiters;
                    for (qsizetype j = 0; j < kept->retriers.size(); ++j)
                        if (!holders->contains(j))
                            waiters << kept->retriers.at(j);
                    kept->retriers = waiters;
                    print(*kept);
                });
            }
        });
    auto *watcher = new TerminationWatcher(false, this);
    connect(watcher, &TerminationWatcher::terminationRequested, this, [this] { m_session->stop(); });
    m_session->start();
}

void TraceCommand::print(const TraceFindings &findings)
{
    if (m_finished)
        return;
    if (m_out.json()) {
        m_out.jsonLine(json(findings));
        std::fflush(stdout);
    } else {
        m_out.line(text(findings).chopped(1));
    }
    finish(ExitDone);
}

QJsonObject TraceCommand::json(const TraceFindings &f) const
{
    const Listing listing(f);
    QJsonArray ownerList;
    for (const Owner &o : owners(f)) {
        QJsonArray keys, connections;
        for (const QByteArray &k : o.keys)
            keys << Output::jsonText(k);
        for (const TraceFindings::Sighting *s : o.sightings) {
            const ClientEntry *c = listing.find(s->node, s->addr);
            const std::optional<bool> connected = listing.connected(s->node, s->addr);
            QJsonObject connection { { QStringLiteral("addr"), Output::jsonText(s->addr) },
                { QStringLiteral("name"), c ? textOrNull(c->name) : QJsonValue() },
                { QStringLiteral("lib"), c ? textOrNull(c->lib()) : QJsonValue() },
                { QStringLiteral("seen"), isoTime(s->lastMs) }, { QStringLiteral("commands"), s->commands },
                { QStringLiteral("gone"), connected ? QJsonValue(!*connected) : QJsonValue() } };
            if (!s->node.isEmpty())
                connection.insert(QStringLiteral("node"), Output::jsonText(s->node));
            connections << connection;
        }
        ownerList << QJsonObject { { QStringLiteral("identity"), Output::jsonText(o.identity) },
            { QStringLiteral("kind"), QLatin1String(kindId(o.kind)) }, { QStringLiteral("keys"), keys },
            { QStringLiteral("connections"), connections } };
    }
    QJsonArray retriers;
    for (const TraceFindings::Retrier &r : f.retriers) {
        const ClientEntry *c = listing.find(r.node, r.addr);
        QJsonObject retrier { { QStringLiteral("addr"), Output::jsonText(r.addr) },
            { QStringLiteral("name"), c ? textOrNull(c->name) : QJsonValue() },
            { QStringLiteral("key"), Output::jsonText(r.key) },
            { QStringLiteral("identity"), Output::jsonText(r.identity) }, { QStringLiteral("attempts"), r.attempts },
            { QStringLiteral("per_second"), r.perSecond() } };
        if (!r.node.isEmpty())
            retrier.insert(QStringLiteral("node"), Output::jsonText(r.node));
        retriers << retrier;
    }
    QJsonArray clients;
    for (const ClientEntry &c : f.clients) {
        QJsonObject client { { QStringLiteral("id"), c.id }, { QStringLiteral("addr"), Output::jsonText(c.addr) },
            { QStringLiteral("name"), textOrNull(c.name) }, { QStringLiteral("lib"), textOrNull(c.lib()) },
            { QStringLiteral("age_s"), c.ageS }, { QStringLiteral("idle_s"), c.idleS },
            { QStringLiteral("user"), textOrNull(c.user) } };
        if (!c.node.isEmpty())
            client.insert(QStringLiteral("node"), Output::jsonText(c.node));
        clients << client;
    }
    QJsonArray nodes;
    for (const QByteArray &n : f.nodes)
        nodes << Output::jsonText(n);
    const QJsonObject cost { { QStringLiteral("monitor_lines"), f.cost.lines },
        { QStringLiteral("monitor_bytes"), f.cost.bytes },
        { QStringLiteral("server_cpu_ms"), f.cost.serverCpuMs >= 0 ? QJsonValue(f.cost.serverCpuMs) : QJsonValue() },
        { QStringLiteral("wall_ms"), f.cost.wallMs } };
    const QJsonObject partial { { QStringLiteral("partial"), !f.partial.isEmpty() },
        { QStringLiteral("why"), QJsonArray::fromStringList(f.partial) } };
    return QJsonObject { { QStringLiteral("seconds"), m_seconds }, { QStringLiteral("nodes"), nodes },
        { QStringLiteral("owners"), ownerList }, { QStringLiteral("retriers"), retriers },
        { QStringLiteral("clients"), clients }, { QStringLiteral("cost"), cost },
        { QStringLiteral("partial"), partial } };
}

QString TraceCommand::text(const TraceFindings &f) const
{
    const Listing listing(f);
    const auto where = [&listing](const QByteArray &node, const QByteArray &addr) {
        const ClientEntry *c = listing.find(node, addr);
        QString place = escapeBytes(addr, 60);
        if (c && !c->name.isEmpty())
            place = QStringLiteral("%1 (%2)").arg(escapeBytes(c->name, 60), place);
        return listing.cluster ? QStringLiteral("%1 @%2").arg(place, QString::fromUtf8(node)) : place;
    };
    const auto seconds = [](qint64 s) { return s < 0 ? QStringLiteral("-") : LockTexts::durationText(s * 1000); };
    QStringList nodes;
    for (const QByteArray &n : f.nodes)
        nodes << QString::fromUtf8(n);
    QString out = tr("traced %1 for %2").arg(nodes.join(QStringLiteral(", ")), LockTexts::durationText(f.cost.wallMs))
        + QLatin1Char('\n');

    QList<QStringList> rows { { tr("OWNER / TOKEN"), tr("KIND"), tr("KEYS"), tr("CONNECTION"), tr("LIB"), tr("AGE"),
        tr("IDLE"), tr("LAST SEEN") } };
    for (const Owner &o : owners(f)) {
        bool first = true;
        for (const TraceFindings::Sighting *s : o.sightings) {
            const ClientEntry *c = listing.find(s->node, s->addr);
            const std::optional<bool> connected = listing.connected(s->node, s->addr);
            const QString gone = tr("gone");
            rows << QStringList { first ? escapeBytes(o.identity, 60) : QString(),
                first ? QString::fromLatin1(kindId(o.kind)) : QString(), first ? escapeList(o.keys, 40) : QString(),
                where(s->node, s->addr), c ? escapeBytes(c->lib(), 30) : QString(),
                connected && !*connected ? gone
                    : c                  ? seconds(c->ageS)
                                         : QStringLiteral("-"),
                c ? seconds(c->idleS) : QStringLiteral("-"),
                QDateTime::fromMSecsSinceEpoch(s->lastMs).toString(QStringLiteral("HH:mm:ss.zzz")) };
            first = false;
        }
    }
    if (rows.size() == 1)
        out += tr("no owner id or token was seen in a lock command") + QLatin1Char('\n');
    else
        out += textTable(rows);

    out += QLatin1Char('\n');
    if (f.retriers.isEmpty()) {
        out += tr("no waiter retried an acquire") + QLatin1Char('\n');
    } else {
        out += tr("waiters that retry:") + QLatin1Char('\n');
        for (const TraceFindings::Retrier &r : f.retriers)
            out += QStringLiteral("  ")
                + tr("%1 retries %2 %3 times, %4/s (as %5)")
                      .arg(where(r.node, r.addr), escapeBytes(r.key, 80))
                      .arg(r.attempts)
                      .arg(r.perSecond(), 0, 'f', 1)
                      .arg(escapeBytes(r.identity, 60))
                + QLatin1Char('\n');
    }

    out += QLatin1Char('\n');
    QList<QStringList> clients { { tr("NAME"), tr("ADDR"), tr("LIB"), tr("AGE"), tr("IDLE"), tr("USER") } };
    if (listing.cluster)
        clients.first() << tr("NODE");
    for (const ClientEntry &c : f.clients) {
        clients << QStringList { c.name.isEmpty() ? QStringLiteral("-") : escapeBytes(c.name, 60),
            escapeBytes(c.addr, 60), c.lib().isEmpty() ? QStringLiteral("-") : escapeBytes(c.lib(), 30),
            seconds(c.ageS), seconds(c.idleS), escapeBytes(c.user, 30) };
        if (listing.cluster)
            clients.last() << QString::fromUtf8(c.node);
    }
    if (clients.size() == 1)
        out += tr("no connection listed") + QLatin1Char('\n');
    else
        out += tr("connections:") + QLatin1Char('\n') + textTable(clients);
    out += QLatin1Char('\n');

    const QString wall = QString::number(double(f.cost.wallMs) / 1000, 'f', 1);
    if (f.cost.serverCpuMs >= 0) {
        const double share = f.cost.wallMs > 0 ? 100.0 * double(f.cost.serverCpuMs) / double(f.cost.wallMs) : 0;
        out += tr("cost: the server spent %1 ms of CPU in %2 s (%3 % of a core), MONITOR sent %4 lines, %5 bytes")
                   .arg(f.cost.serverCpuMs)
                   .arg(wall)
                   .arg(share, 0, 'f', 1)
                   .arg(f.cost.lines)
                   .arg(f.cost.bytes);
    } else {
        out += tr("cost: the server's CPU could not be read (INFO cpu); MONITOR sent %1 lines, %2 bytes in %3 s")
                   .arg(f.cost.lines)
                   .arg(f.cost.bytes)
                   .arg(wall);
    }
    out += QLatin1Char('\n');
    for (const QString &why : f.partial)
        out += tr("partial: %1").arg(why) + QLatin1Char('\n');
    return out;
}

} // namespace LockScope::Cli
