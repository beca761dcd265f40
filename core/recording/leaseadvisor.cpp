#include "recording/leaseadvisor.h"

#include "kinds/keyglob.h"
#include "recording/recordingstore.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QJsonArray>

#include <algorithm>

namespace LockScope {

namespace {
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::LeaseAdvice", text);
}

QString when(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', ms < 10000 ? 1 : 0);
}

qint64 quantile(QList<qint64> values, double q)
{
    if (values.isEmpty())
        return -1;
    std::sort(values.begin(), values.end());
    return values.at(qMin<qsizetype>(values.size() - 1, qsizetype(q * double(values.size()))));
}

QByteArray clientOf(const QByteArray &owner)
{
    // A Redisson owner is "<uuid>:<thread>"; the watchdog belongs to the client, whatever the thread.
    const int colon = owner.indexOf(':');
    return colon == 36 ? owner.left(colon) : owner;
}

struct Hold
{
    qint64 startMs = -1;
    qint64 leaseMs = -1;
    bool renewed = false;
};

struct Working
{
    LeaseAdvice::Lock lock;
    QHash<QByteArray, Hold> open; // by owner
    QList<qint64> durations;
    QList<qint64> leases;
    qint64 fixedHolds = 0, fixedPastTwoThirds = 0, fixedExpiries = 0;
    bool renewedSeen = false; // the lock's lease was renewed in the window: a watchdog lock, never a fixed lease
    QHash<QByteArray, qint64> lastBeat; // by owner: its last acquire or renewal
    QHash<QByteArray, QList<std::pair<qint64, qint64>>> intervals; // by client: (at, interval)
};
} // namespace

QJsonObject LeaseAdvice::Lock::toJson() const
{
    QJsonArray clientArray;
    for (const Client &c : clients) {
        QJsonObject gaps;
        for (auto it = c.gapHistogram.cbegin(); it != c.gapHistogram.cend(); ++it)
            gaps.insert(it.key(), it.value());
        clientArray.append(QJsonObject { { QStringLiteral("client"), jsonText(c.client) },
            { QStringLiteral("renewals"), c.renewals }, { QStringLiteral("renewal_period_ms"), c.periodMs },
            { QStringLiteral("inferred_watchdog_timeout_ms"), c.inferredTimeoutMs },
            { QStringLiteral("gap_histogram"), gaps },
            { QStringLiteral("longest_gap"),
                c.longestGap.gapMs > 0 ? QJsonValue(QJsonObject { { QStringLiteral("ms"), c.longestGap.gapMs },
                    { QStringLiteral("at"),
                        QDateTime::fromMSecsSinceEpoch(c.longestGap.atMs, Qt::UTC).toString(Qt::ISODateWithMs) } })
                                       : QJsonValue() } });
    }
    QJsonArray verdictArray;
    for (const Verdict &v : verdicts)
        verdictArray.append(QJsonObject {
            { QStringLiteral("code"), QString::fromLatin1(v.code) }, { QStringLiteral("text"), v.text } });
    return QJsonObject { { QStringLiteral("name"), jsonText(name) },
        { QStringLiteral("kind"), QString::fromLatin1(kind) },
        { QStringLiteral("library"), QString::fromUtf8(library) }, { QStringLiteral("holds"), holds },
        { QStringLiteral("hold_ms"),
            QJsonObject { { QStringLiteral("p50"), p50Ms }, { QStringLiteral("p95"), p95Ms },
                { QStringLiteral("max"), maxMs } } },
        { QStringLiteral("lease_ms"), leaseMs }, { QStringLiteral("watchdog"), watchdog },
        { QStringLiteral("past_two_thirds"), pastTwoThirds }, { QStringLiteral("expiries"), expiries },
        { QStringLiteral("longest_open_ms"), longestOpenMs }, { QStringLiteral("clients"), clientArray },
        { QStringLiteral("verdicts"), verdictArray }, { QStringLiteral("source"), QStringLiteral("recording") } };
}

bool LeaseAdvice::advise(const RecordingStore &store, const QByteArray &pattern, qint64 sinceMs, qint64 untilMs,
    LeaseAdvice *out, QString *error)
{
    out->fromMs = sinceMs >= 0 ? sinceMs : store.firstTimeMs();
    out->untilMs = untilMs >= 0 ? untilMs : store.lastTimeMs();
    QHash<QByteArray, Working> locks;
    EventQuery query;
    query.sinceMs = sinceMs;
    query.untilMs = untilMs;
    query.types = { "acquired", "renewed", "released", "expired", "force-released", "owner-changed", "lost" };
    const auto end = [](Working &w, const QByteArray &owner, qint64 atMs) {
        const auto it = w.open.find(owner);
        if (it == w.open.end())
            return;
        if (it->startMs >= 0) {
            const qint64 held = atMs - it->startMs;
            w.durations << held;
            if (!it->renewed && it->leaseMs > 0) {
                ++w.fixedHolds;
                if (held * 3 > it->leaseMs * 2)
                    ++w.fixedPastTwoThirds;
            }
        }
        w.open.erase(it);
        w.lastBeat.remove(owner);
    };
    const bool ok = store.forEachEvent(
        query,
        [&](const RecordedEvent &e) {
            if (e.name.isEmpty() || !globMatch(pattern, e.name))
                return true;
            Working &w = locks[e.name];
            w.lock.name = e.name;
            if (!e.kind.isEmpty())
                w.lock.kind = e.kind;
            if (!e.library.isEmpty())
                w.lock.library = e.library;
            if (e.type == "acquired" || e.type == "owner-changed") {
                if (e.type == "owner-changed")
                    end(w, e.previousOwner, e.timeMs);
                w.open[e.owner] = Hold { e.timeMs, e.ttlMs, false };
                w.lastBeat[e.owner] = e.timeMs;
                if (e.ttlMs > 0)
                    w.leases << e.ttlMs;
            } else if (e.type == "renewed") {
                // A renewal extends the key's lease, so every hold open on it is on a watchdog: the monitor names one
                // holder (a read-write lock's readers share one key, renewed by whichever client's watchdog).
                w.renewedSeen = true;
                if (!w.open.contains(e.owner))
                    w.open.insert(e.owner, Hold {});
                for (Hold &h : w.open)
                    h.renewed = true;
                if (const auto last = w.lastBeat.constFind(e.owner); last != w.lastBeat.cend())
                    w.intervals[clientOf(e.owner)] << std::make_pair(e.timeMs, e.timeMs - *last);
                w.lastBeat[e.owner] = e.timeMs;
            } else if (e.type == "released") {
                if (e.count <= 0)
                    end(w, e.owner, e.timeMs);
            } else if (e.type == "expired" || e.type == "force-released") {
                if (e.type == "expired") {
                    ++w.lock.expiries;
                    // Only a lease nobody renewed says the lease was too short; a watchdog's ran out because its
                    // client stopped (a crash, a pause): renewal-gap's business.
                    if (std::any_of(w.open.cbegin(), w.open.cend(), [](const Hold &h) { return !h.renewed; }))
                        ++w.fixedExpiries;
                }
                const QList<QByteArray> owners = w.open.keys();
                for (const QByteArray &owner : owners)
                    end(w, owner, e.timeMs);
            } else if (e.type == "lost") {
                end(w, e.owner, e.timeMs);
            }
            return true;
        },
        error);
    if (!ok)
        return false;

    for (Working &w : locks) {
        LeaseAdvice::Lock &l = w.lock;
        l.holds = w.durations.size();
        l.p50Ms = quantile(w.durations, 0.5);
        l.p95Ms = quantile(w.durations, 0.95);
        l.maxMs = w.durations.isEmpty() ? -1 : *std::max_element(w.durations.cbegin(), w.durations.cend());
        l.leaseMs = quantile(w.leases, 0.5);
        l.watchdog = w.renewedSeen;
        // A watchdog lock's holds that ended before its first renewal were never fixed-lease holds.
        if (w.renewedSeen)
            w.fixedHolds = w.fixedPastTwoThirds = w.fixedExpiries = 0;
        l.pastTwoThirds = w.fixedHolds > 0 ? double(w.fixedPastTwoThirds) / double(w.fixedHolds) : 0;
        for (auto it = w.open.cbegin(); it != w.open.cend(); ++it) {
            if (it->startMs >= 0 && out->untilMs - it->startMs > l.longestOpenMs) {
                l.longestOpenMs = out->untilMs - it->startMs;
                l.longestOpenOwner = it.key();
            }
        }
        for (auto it = w.intervals.cbegin(); it != w.intervals.cend(); ++it) {
            Client c;
            c.client = it.key();
            c.renewals = it->size();
            QList<qint64> values;
            for (const auto &[at, interval] : *it)
                values << interval;
            c.periodMs = quantile(values, 0.5);
            c.inferredTimeoutMs = c.periodMs > 0 ? c.periodMs * 3 : -1;
            for (const auto &[at, interval] : *it) {
                const QString bucket = interval * 2 <= c.periodMs * 3 ? QStringLiteral("<=1.5x")
                    : interval <= c.periodMs * 3                      ? QStringLiteral("1.5x-3x")
                                                                      : QStringLiteral(">3x");
                ++c.gapHistogram[bucket];
                if (interval > c.longestGap.gapMs)
                    c.longestGap = Gap { at, interval };
            }
            l.clients << c;
        }
        // The verdicts.
        if (w.fixedHolds > 0 && l.leaseMs > 0 && (l.pastTwoThirds >= 0.05 || w.fixedExpiries > 0))
            l.verdicts << Verdict { "lease-too-short",
                tr("lease too short: %1 % of holds passed ⅔ of its %2 s lease, %3 expired")
                    .arg(qRound(l.pastTwoThirds * 100))
                    .arg(seconds(l.leaseMs))
                    .arg(w.fixedExpiries) };
        for (const Client &c : l.clients)
            if (c.periodMs > 0 && c.longestGap.gapMs * 2 > c.periodMs * 3)
                l.verdicts << Verdict { "renewal-gap",
                    tr("renewal gap %1 s at %2 (%3 renews every %4 s): a pause")
                        .arg(seconds(c.longestGap.gapMs), when(c.longestGap.atMs), QString::fromUtf8(c.client),
                            seconds(c.periodMs)) };
        const qint64 longest = qMax(l.maxMs, l.longestOpenMs);
        if (l.p95Ms > 0 && longest >= 60000 && longest >= 10 * l.p95Ms)
            l.verdicts << Verdict { "long-hold",
                tr("%1 for %2 s, %3× the p95 hold")
                    .arg(l.watchdog ? tr("renewing") : tr("held"))
                    .arg(seconds(longest))
                    .arg(longest / l.p95Ms) };
        qint64 lowest = -1, highest = -1;
        for (const Client &c : l.clients) {
            if (c.inferredTimeoutMs <= 0 || c.renewals < 2)
                continue;
            lowest = lowest < 0 ? c.inferredTimeoutMs : qMin(lowest, c.inferredTimeoutMs);
            highest = qMax(highest, c.inferredTimeoutMs);
        }
        if (lowest > 0 && highest * 4 > lowest * 5)
            l.verdicts << Verdict { "mixed-timeouts",
                tr("clients renew on different watchdog timeouts (%1 s to %2 s): one may lose the lock the other "
                   "would keep")
                    .arg(seconds(lowest), seconds(highest)) };
        out->locks << l;
    }
    std::sort(out->locks.begin(), out->locks.end(), [](const Lock &a, const Lock &b) {
        if (a.verdicts.isEmpty() != b.verdicts.isEmpty())
            return !a.verdicts.isEmpty();
        return a.holds != b.holds ? a.holds > b.holds : a.name < b.name;
    });
    return true;
}

} // namespace LockScope
