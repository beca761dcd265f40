#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace LockScope::Test {

// One hold as a worker believed it: from just after the acquire to just before the release, in server time (µs).
// Both ends sit inside the true hold, so two of these overlapping means two true holds overlapped.
struct Hold
{
    QByteArray lock;
    QByteArray owner;
    qint64 beforeAcquire = 0; // the hold cannot have started earlier
    qint64 start = 0;
    qint64 end = 0;
    qint64 leaseMs = 0;
    bool watchdog = false;
    bool lost = false; // the watchdog found it gone
    bool killed = false; // its process was killed while holding: end is the kill
    QByteArray outcome;
};

struct Overlap
{
    Hold first;
    Hold second;
};

struct HistoryVerdict
{
    int holds = 0;
    QList<Overlap> excused; // the first hold's lease had run out before the second began
    QList<Overlap> violations;
};

// Reads the workers' logs (see tests/worker/historyworker.h). A worker killed while holding has its open hold end at
// killedAtUs; -1 when it ran to its end.
inline QList<Hold> parseHistory(const QByteArray &log, qint64 killedAtUs)
{
    QList<Hold> holds;
    Hold open;
    bool holding = false;
    for (const QByteArray &raw : log.split('\n')) {
        const QList<QByteArray> f = raw.trimmed().split(' ');
        if (f.first() == "A" && f.size() == 7) {
            open = Hold { f.at(1), f.at(2), f.at(3).toLongLong(), f.at(4).toLongLong(), 0, f.at(5).toLongLong(),
                f.at(6) == "1", false, false, {} };
            holding = true;
        } else if (f.first() == "R" && f.size() == 5 && holding) {
            open.end = f.at(3).toLongLong();
            open.outcome = f.at(4);
            holds << open;
            holding = false;
        } else if (f.first() == "L" && f.size() == 3 && holding && open.lock == f.at(1)) {
            open.lost = true;
        }
    }
    if (holding && killedAtUs > 0) {
        open.end = killedAtUs;
        open.killed = true;
        holds << open;
    }
    return holds;
}

// No two holds of one lock may overlap, except after the first one's lease ran out unrenewed: a fixed lease that
// started no earlier than beforeAcquire cannot outlast beforeAcquire + lease.
inline HistoryVerdict checkHistory(QList<Hold> holds)
{
    HistoryVerdict verdict;
    verdict.holds = int(holds.size());
    std::sort(holds.begin(), holds.end(), [](const Hold &a, const Hold &b) { return a.start < b.start; });
    for (int i = 0; i < holds.size(); ++i) {
        const Hold &a = holds.at(i);
        for (int j = i + 1; j < holds.size() && holds.at(j).start < a.end; ++j) {
            const Hold &b = holds.at(j);
            if (b.lock != a.lock)
                continue;
            const bool leaseRanOut = (!a.watchdog || a.lost) && b.start >= a.beforeAcquire + a.leaseMs * 1000;
            (leaseRanOut ? verdict.excused : verdict.violations) << Overlap { a, b };
        }
    }
    return verdict;
}

inline QString describe(const Overlap &o)
{
    return QStringLiteral("%1: %2 held [%3, %4] (lease %5 ms%6), %7 from %8")
        .arg(QString::fromUtf8(o.first.lock), QString::fromUtf8(o.first.owner))
        .arg(o.first.start)
        .arg(o.first.end)
        .arg(o.first.leaseMs)
        .arg(o.first.watchdog ? QStringLiteral(", watchdog") : QString())
        .arg(QString::fromUtf8(o.second.owner))
        .arg(o.second.start);
}

} // namespace LockScope::Test
