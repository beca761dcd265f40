#include "stuckcommand.h"

#include "inspectcommands.h"

#include "kinds/lockscanner.h"
#include "liveness/blockers.h"
#include "liveness/holderwatch.h"
#include "monitor/lockmonitor.h"
#include "redis/bytesformat.h"
#include "redis/redisrouter.h"
#include "stats/stuckcheck.h"

#include <QDateTime>
#include <QJsonArray>
#include <QSet>
#include <QTimer>

#include <algorithm>
#include <limits>
#include <memory>

namespace LockScope::Cli {

namespace {
// The problems in conventions.md's words (some of StuckFinding's own ids differ: "jammed-queue" is "queue-jammed"
// there, "waiters-without-holder" is "waiters-on-free-lock"), in the order findings of one lock are listed.
enum class Problem {
    NeverExpires,
    HeldTooLong,
    RenewalsStopped,
    QueueJammed,
    DeadReaders,
    WaitersOnFreeLock,
    Deadlock
};

Problem problemOf(StuckFinding::Reason reason)
{
    switch (reason) {
    case StuckFinding::Reason::NeverExpires:
        return Problem::NeverExpires;
    case StuckFinding::Reason::HeldTooLong:
        return Problem::HeldTooLong;
    case StuckFinding::Reason::RenewalsStopped:
        return Problem::RenewalsStopped;
    case StuckFinding::Reason::JammedQueue:
        return Problem::QueueJammed;
    case StuckFinding::Reason::DeadReaders:
        return Problem::DeadReaders;
    case StuckFinding::Reason::WaitersWithoutHolder:
        return Problem::WaitersOnFreeLock;
    }
    return Problem::NeverExpires;
}

QString problemId(Problem problem)
{
    switch (problem) {
    case Problem::NeverExpires:
        return QStringLiteral("never-expires");
    case Problem::HeldTooLong:
        return QStringLiteral("held-too-long");
    case Problem::RenewalsStopped:
        return QStringLiteral("renewals-stopped");
    case Problem::QueueJammed:
        return QStringLiteral("queue-jammed");
    case Problem::DeadReaders:
        return QStringLiteral("dead-readers");
    case Problem::WaitersOnFreeLock:
        return QStringLiteral("waiters-on-free-lock");
    case Problem::Deadlock:
        return QStringLiteral("deadlock");
    }
    return {};
}

struct Entry
{
    QByteArray name;
    Problem problem = Problem::NeverExpires;
    qint64 sinceEpochMs = -1; // -1: unknown
    QList<QByteArray> holders; // who holds it (for dead readers: the dead readers); empty: nobody
    QString fix; // its id
    QString problemText;
    QString fixText;
};

// A lock as one read shows it, in the shape the Stuck rules judge: its lease's end is known, when its hold began is
// not (unless its holders write it down), nor anything about renewals.
LockRecord oneRead(const LockInfo &info)
{
    LockRecord r;
    r.info = info;
    r.present = true;
    r.deadlineMs = info.ttlMs >= 0 ? info.readAtMs + info.ttlMs : -1;
    r.firstSeenMs = info.readAtMs;
    return r;
}

bool freeWithWaiters(const LockRecord *record)
{
    return record && record->present && record->info.holders.isEmpty()
        && qMax(qMax(record->info.waiters, 0), int(record->info.queue.size())) > 0;
}

QString sinceText(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, Qt::UTC).toString(Qt::ISODateWithMs);
}
} // namespace

void StuckCommand::start()
{
    if (m_parser.isSet(QStringLiteral("observe"))) {
        bool ok = false;
        m_observeMs = m_parser.value(QStringLiteral("observe")).toInt(&ok);
        if (!ok || m_observeMs < 0 || m_observeMs > 3600 * 1000) {
            m_out.error(tr("--observe takes milliseconds (0 to 3600000)"));
            finish(ExitUsage);
            return;
        }
    }
    if (m_observeMs > 0)
        observe(m_observeMs);
    else
        scan(nullptr);
}

void StuckCommand::observe(int observeMs)
{
    LockMonitor::Options options;
    monitorOptions(&options, false);
    auto *monitor = new LockMonitor(readOnly(m_connection), options, this);
    connect(monitor, &LockMonitor::locksChanged, this, [this, monitor](const LockMonitor::Changes &changes) {
        followFreeWithWaiters(monitor, changes.updated, monotonicMs());
        for (const QByteArray &name : changes.removed) {
            m_freeWithWaitersSince.remove(name);
            m_freeWithWaitersFromStart.remove(name);
        }
    });
    connect(monitor, &LockMonitor::snapshotFinished, this, [this](const RedisError &error, int) {
        if (!error.isError())
            m_snapshotDoneMs = monotonicMs();
        // A node that did not answer: the final pass says which, and the answer is partial.
        if (error.isError() && m_observeError.isEmpty())
            m_observeError = error.toString();
    });
    // Not even the server's kind is known: nothing to watch, and nothing will be.
    connect(monitor->connection(), &RedisCommander::disconnected, this, [this, monitor](const RedisError &error) {
        if (monitor->connection()->mode() == RedisRouter::Mode::Probing && !m_scanning)
            finish(m_out.fail(error));
    });
    if (!m_out.json())
        m_out.line(tr("watching %1 for %2 ms…").arg(escapeBytes(options.pattern, 200)).arg(observeMs));
    QTimer::singleShot(observeMs, this, [this, monitor] {
        if (m_finished)
            return;
        if (!monitor->isSnapshotComplete()) {
            // What it saw of the nodes that answered still counts; the rest is one read, said to be partial.
            scan(monitor);
            return;
        }
        // Whatever the server did before now is judged before the answer; a feed that never syncs (a node lost
        // meanwhile) does not hold the answer back.
        auto settled = std::make_shared<bool>(false);
        const auto go = [this, monitor, settled] {
            if (std::exchange(*settled, true) || m_finished)
                return;
            followFreeWithWaiters(monitor, monitor->lockNames(), monotonicMs());
            scan(monitor);
        };
        monitor->settle(go);
        QTimer::singleShot(10000, this, go);
    });
    monitor->start();
}

void StuckCommand::followFreeWithWaiters(const LockMonitor *monitor, const QList<QByteArray> &names, qint64 nowMs)
{
    for (const QByteArray &name : names) {
        const LockRecord *record = monitor->record(name);
        if (!freeWithWaiters(record)) {
            m_freeWithWaitersSince.remove(name);
            m_freeWithWaitersFromStart.remove(name);
            if (record && record->present)
                m_seenOtherwise.insert(name);
        } else if (!m_freeWithWaitersSince.contains(name)) {
            m_freeWithWaitersSince.insert(name, nowMs);
            // So when the first pass met it, and never seen otherwise: so since before the watching began.
            if (!m_seenOtherwise.contains(name) && (m_snapshotDoneMs < 0 || record->firstSeenMs <= m_snapshotDoneMs))
                m_freeWithWaitersFromStart.insert(name);
        }
    }
}

void StuckCommand::scan(const LockMonitor *monitor)
{
    m_scanning = true;
    auto *connection = new RedisRouter(readOnly(m_connection), this);
    LockScanner::Options options;
    options.pattern = keyPattern();
    options.stringPatterns = stringLockPatterns();
    options.partialOnNodeFailure = true; // a node down: the others' problems, said to be partial
    auto *scanner = new LockScanner(connection, options, this);
    auto found = std::make_shared<QList<LockInfo>>();
    connect(scanner, &LockScanner::locksFound, this, [found](const QList<LockInfo> &locks) { *found << locks; });
    connect(scanner, &LockScanner::finished, this,
        [this, found, connection, scanner, monitor](const RedisError &error, int) {
            if (error.isError()) {
                finish(m_out.fail(error));
                return;
            }
            // The waiters' lists that owner templates declare: a home-grown lock's waiters can be in a deadlock too.
            HolderWatch *watch = holderWatch(connection);
            watch->readQueues(*found, [this, found, watch, scanner, monitor] {
                QStringList partial = scanner->partial();
                if (monitor && !monitor->isSnapshotComplete())
                    partial << tr("the observation never completed a pass over every node (%1): what it did not see "
                                  "is judged from one read")
                                   .arg(m_observeError.isEmpty() ? tr("no answer in time") : m_observeError);
                report(*found, *watch, partial, monitor);
            });
        });
    scanWhenReady(connection, scanner);
}

void StuckCommand::report(
    const QList<LockInfo> &found, const HolderWatch &watch, const QStringList &partial, const LockMonitor *monitor)
{
    const qint64 nowMs = monotonicMs();
    const qint64 epochMs = QDateTime::currentMSecsSinceEpoch();
    const StuckOptions options;
    const auto toEpoch = [nowMs, epochMs](qint64 monoMs) { return monoMs > 0 ? epochMs - (nowMs - monoMs) : -1; };
    std::vector<Entry> entries;
    QHash<QByteArray, QList<QByteArray>> holdersOf;
    BlockerInput in;
    for (const LockInfo &lock : found) {
        in.locks << watch.withQueue(lock);
        // What the observation saw of it (renewals, when its hold began, since when it is free with waiters), if it
        // saw it; else what this read shows.
        const LockRecord *watched = monitor ? monitor->record(lock.name) : nullptr;
        const bool observed = watched && watched->present;
        const LockRecord record = observed ? *watched : oneRead(lock);
        QList<QByteArray> holders;
        for (const LockHolder &h : record.info.holders)
            holders << h.owner;
        holdersOf.insert(lock.name, holders);
        const qint64 freeSince = observed ? m_freeWithWaitersSince.value(lock.name, -1) : -1;
        for (const StuckFinding &f : findStuck(record, nowMs, epochMs, options, freeSince)) {
            Entry e;
            e.name = lock.name;
            e.problem = problemOf(f.reason);
            // Only a moment the evidence dates: the monitor's first sight of a hold (or of waiters on a free lock)
            // that was already there when it started watching is not when it began.
            const bool undated = observed
                && (((f.reason == StuckFinding::Reason::NeverExpires || f.reason == StuckFinding::Reason::HeldTooLong)
                        && f.sinceMs == record.holdSinceMs && !record.holdStartSeen)
                    || (f.reason == StuckFinding::Reason::WaitersWithoutHolder
                        && m_freeWithWaitersFromStart.contains(lock.name)));
            e.sinceEpochMs = undated ? -1 : toEpoch(f.sinceMs);
            if (f.reason == StuckFinding::Reason::DeadReaders) {
                for (const LockHolder &h : record.info.holders)
                    if (h.deadReader)
                        e.holders << h.owner;
            } else {
                e.holders = holders;
            }
            e.fix = QString::fromLatin1(StuckFinding::fixId(f.fix));
            e.problemText = StuckFinding::reasonText(f.reason);
            e.fixText = StuckFinding::fixText(f.fix);
            entries.push_back(e);
        }
    }
    // Deadlocks: one entry per lock in a ring of named waiters, as blockers reports the ring.
    in.retriers = watch.retriers();
    in.epochMs = epochMs;
    QSet<QByteArray> inCycle;
    for (const BlockerCycle &cycle : findBlockers(in).cycles) {
        for (const QByteArray &name : cycle.locks) {
            if (inCycle.contains(name))
                continue;
            inCycle << name;
            Entry e;
            e.name = name;
            e.problem = Problem::Deadlock;
            for (const BlockerCycle::Edge &edge : cycle.edges)
                if (edge.lock == name && !e.holders.contains(edge.holder))
                    e.holders << edge.holder;
            if (e.holders.isEmpty())
                e.holders = holdersOf.value(name);
            e.fix = QStringLiteral("break-deadlock");
            e.problemText = tr("deadlock: its holder waits for a lock whose holder waits, in a ring, for this one");
            e.fixText = tr("one holder in the ring must let go (lockscope-cli blockers shows the ring): stop that "
                           "thread, or force release its lock once you accept that it loses it");
            entries.push_back(e);
        }
    }
    // The longest standing first, as the console lists them; unknown ages after them, by name.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        const qint64 sa = a.sinceEpochMs < 0 ? std::numeric_limits<qint64>::max() : a.sinceEpochMs;
        const qint64 sb = b.sinceEpochMs < 0 ? std::numeric_limits<qint64>::max() : b.sinceEpochMs;
        if (sa != sb)
            return sa < sb;
        if (a.name != b.name)
            return a.name < b.name;
        return a.problem < b.problem;
    });

    QJsonArray stuck;
    QStringList lines;
    for (const Entry &e : entries) {
        QJsonArray holders;
        QStringList shownHolders;
        for (const QByteArray &h : e.holders) {
            holders << jsonText(h);
            shownHolders << escapeBytes(h, 120);
        }
        stuck << QJsonObject { { QStringLiteral("name"), jsonText(e.name) },
            { QStringLiteral("problem"), problemId(e.problem) },
            { QStringLiteral("since"), e.sinceEpochMs < 0 ? QJsonValue() : QJsonValue(sinceText(e.sinceEpochMs)) },
            { QStringLiteral("holder"), e.holders.isEmpty() ? QJsonValue() : QJsonValue(jsonText(e.holders.first())) },
            { QStringLiteral("holders"), holders }, { QStringLiteral("fix"), e.fix } };
        lines << tr("%1  %2  since %3  holder %4  fix: %5")
                     .arg(escapeBytes(e.name, 200), e.problemText,
                         e.sinceEpochMs < 0 ? tr("unknown") : sinceText(e.sinceEpochMs),
                         shownHolders.isEmpty() ? tr("none") : shownHolders.join(QStringLiteral(", ")), e.fixText);
    }
    if (entries.empty())
        lines << (partial.isEmpty() ? tr("no stuck locks") : tr("no stuck locks among those it could see"));
    QJsonObject o { { QStringLiteral("stuck"), stuck }, { QStringLiteral("observed_ms"), m_observeMs } };
    if (!partial.isEmpty()) {
        o.insert(QStringLiteral("partial"), true);
        o.insert(QStringLiteral("why"), QJsonArray::fromStringList(partial));
        for (const QString &p : partial)
            lines << tr("partial: %1").arg(p);
    }
    m_out.object(o, lines.join(QLatin1Char('\n')));
    finish(ExitDone);
}

} // namespace LockScope::Cli
