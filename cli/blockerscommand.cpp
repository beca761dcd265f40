#include "blockerscommand.h"

#include "inspectcommands.h"

#include "clients/tracestore.h"
#include "kinds/lockscanner.h"
#include "liveness/blockers.h"
#include "liveness/holderwatch.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSet>

#include <memory>

namespace LockScope::Cli {

namespace {
QString shown(const QByteArray &bytes)
{
    return escapeBytes(bytes, 120);
}

QJsonArray strings(const QList<QByteArray> &list)
{
    QJsonArray a;
    for (const QByteArray &b : list)
        a << shown(b);
    return a;
}

QJsonObject nodeJson(const BlockerReport &r, int index, QSet<int> &path);

QJsonArray waitersJson(const BlockerReport &r, const BlockerNode &node, QSet<int> &path)
{
    QJsonArray waiters;
    for (const BlockerNode::Waiter &w : node.waiters) {
        QJsonObject o { { QStringLiteral("owner"), shown(w.owner) }, { QStringLiteral("lock"), shown(w.lock) },
            { QStringLiteral("position"), w.position }, { QStringLiteral("evidence"), w.evidence } };
        // A waiter that holds locks others wait for: what it blocks in turn (once on a path: a ring is a cycle).
        if (w.node >= 0 && !path.contains(w.node))
            o.insert(QStringLiteral("blocks"), nodeJson(r, w.node, path));
        waiters << o;
    }
    return waiters;
}

QJsonObject nodeJson(const BlockerReport &r, int index, QSet<int> &path)
{
    const BlockerNode &n = r.nodes.at(index);
    path << index;
    QJsonObject o { { QStringLiteral("owner"), shown(n.owner) },
        { QStringLiteral("role"),
            n.role == BlockerNode::Role::DeadQueueHead ? QStringLiteral("dead-queue-head") : QStringLiteral("holder") },
        { QStringLiteral("locks"), strings(n.locks) },
        { QStringLiteral("liveness"), QString::fromLatin1(LivenessVerdict::stateId(n.verdict.state)) },
        { QStringLiteral("liveness_summary"), n.verdict.summary },
        { QStringLiteral("liveness_evidence"), QJsonArray::fromStringList(n.verdict.evidence) },
        { QStringLiteral("action"), n.action }, { QStringLiteral("blocked"), n.blocked },
        { QStringLiteral("anonymous"), n.anonymous }, { QStringLiteral("waiters"), waitersJson(r, n, path) } };
    path.remove(index);
    return o;
}

void textTree(const BlockerReport &r, int index, int depth, QSet<int> &path, QStringList &lines)
{
    const BlockerNode &n = r.nodes.at(index);
    const QString indent(depth * 4, QLatin1Char(' '));
    path << index;
    for (const BlockerNode::Waiter &w : n.waiters) {
        lines << BlockersCommand::tr("%1  <- %2 waits for %3 (%4)")
                     .arg(indent, shown(w.owner), shown(w.lock), w.evidence);
        if (w.node >= 0 && !path.contains(w.node)) {
            const BlockerNode &m = r.nodes.at(w.node);
            lines << BlockersCommand::tr("%1       which holds %2, %3")
                         .arg(indent, QString::fromUtf8(m.locks.join(", ")), m.verdict.summary);
            textTree(r, w.node, depth + 1, path, lines);
        }
    }
    path.remove(index);
}
} // namespace

void BlockersCommand::start()
{
    auto *connection = new RedisRouter(readOnly(m_connection), this);
    LockScanner::Options options;
    options.pattern = keyPattern();
    options.stringPatterns = stringLockPatterns();
    options.partialOnNodeFailure = true; // a node down: the others' blockers, said to be partial
    auto *scanner = new LockScanner(connection, options, this);
    auto found = std::make_shared<QList<LockInfo>>();
    connect(scanner, &LockScanner::locksFound, this, [found](const QList<LockInfo> &locks) { *found << locks; });
    connect(scanner, &LockScanner::finished, this, [this, found, connection, scanner](const RedisError &error, int) {
        if (error.isError()) {
            finish(m_out.fail(error));
            return;
        }
        HolderWatch *watch = holderWatch(connection);
        watch->readClients([this, found, watch, scanner] {
            QList<LockHolder> holders;
            for (const LockInfo &l : *found)
                holders << l.holders;
            watch->readHeartbeats(holders, [this, found, watch, scanner] {
                watch->readQueues(*found, [this, found, watch, scanner] { report(*found, watch, scanner); });
            });
        });
    });
    scanWhenReady(connection, scanner);
}

void BlockersCommand::report(const QList<LockInfo> &found, const HolderWatch *watch, const LockScanner *scanner)
{
    BlockerInput in;
    for (const LockInfo &l : found)
        in.locks << watch->withQueue(l); // a home-grown lock's waiters, as its template reads them
    // The waiters that only retry are known from the last trace of this server.
    if (const std::optional<TraceFindings> trace = TraceStore::load(m_connection))
        in.retriers = trace->retriers;
    in.verdict = [watch](const LockInfo &lock, const LockHolder &holder) { return watch->verdict(lock, holder); };
    in.epochMs = QDateTime::currentMSecsSinceEpoch();
    in.partial = scanner->partial() + watch->partial();
    print(findBlockers(in));
}

void BlockersCommand::print(const BlockerReport &r)
{
    QJsonArray roots;
    QStringList lines { tr("%n root blocker(s), %1", nullptr, int(r.roots.size()))
                            .arg(tr("%n deadlock(s)", nullptr, int(r.cycles.size()))) };
    for (int index : r.roots) {
        QSet<int> path;
        roots << nodeJson(r, index, path);
        const BlockerNode &n = r.nodes.at(index);
        const QString what = n.role == BlockerNode::Role::DeadQueueHead
            ? tr("%1 heads the queue of %2, which nobody holds")
                  .arg(shown(n.owner), QString::fromUtf8(n.locks.join(", ")))
            : tr("%1 holds %2").arg(shown(n.owner), QString::fromUtf8(n.locks.join(", ")));
        lines << tr("%1: %2 · %n waiting", nullptr, n.blocked).arg(what, n.verdict.summary)
                + (n.anonymous > 0 ? tr(" (+%n unnamed)", nullptr, n.anonymous) : QString());
        lines << tr("    fix: %1").arg(n.action);
        textTree(r, index, 0, path, lines);
    }
    QJsonArray cycles;
    for (const BlockerCycle &c : r.cycles) {
        QJsonArray edges;
        QStringList ring;
        for (const BlockerCycle::Edge &e : c.edges) {
            edges << QJsonObject { { QStringLiteral("waiter"), shown(e.waiter) },
                { QStringLiteral("lock"), shown(e.lock) }, { QStringLiteral("holder"), shown(e.holder) },
                { QStringLiteral("evidence"), e.evidence } };
            ring << tr("%1 waits for %2 (held by %3: %4)")
                        .arg(shown(e.waiter), shown(e.lock), shown(e.holder), e.evidence);
        }
        cycles << QJsonObject { { QStringLiteral("owners"), strings(c.owners) },
            { QStringLiteral("locks"), strings(c.locks) }, { QStringLiteral("edges"), edges } };
        lines << tr("deadlock among %n owner(s):", nullptr, int(c.owners.size()));
        for (const QString &edge : std::as_const(ring))
            lines << QStringLiteral("    ") + edge;
    }
    QJsonObject anonymous;
    for (auto it = r.anonymousWaiters.cbegin(); it != r.anonymousWaiters.cend(); ++it)
        anonymous.insert(shown(it.key()), it.value());
    QJsonObject o { { QStringLiteral("roots"), roots }, { QStringLiteral("cycles"), cycles },
        { QStringLiteral("anonymous_waiters"), anonymous } };
    if (!r.partial.isEmpty()) {
        o.insert(QStringLiteral("partial"), true);
        o.insert(QStringLiteral("why"), QJsonArray::fromStringList(r.partial));
        for (const QString &p : r.partial)
            lines << tr("partial: %1").arg(p);
    }
    m_out.object(o, lines.join(QLatin1Char('\n')));
    finish(ExitDone);
}

} // namespace LockScope::Cli
