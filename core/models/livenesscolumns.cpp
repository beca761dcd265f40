#include "models/livenesscolumns.h"

#include "base/durationtext.h"
#include "liveness/holderwatch.h"
#include "models/locktablemodel.h"
#include "monitor/lockrecord.h"
#include "redis/bytesformat.h"

#include <cmath>

namespace LockScope {

namespace {
constexpr qint64 kAgeSpan = 10000000000LL; // ms of age within one step of missed renewals: 115 days
constexpr qint64 kMaxMissedTenths = 100000000LL; // keeps the key inside qint64
} // namespace

QString LivenessColumns::renewedText(const RenewalFigures &f)
{
    if (f.lastRenewedMs < 0)
        return QStringLiteral("—");
    const QString age = durationText(f.lastRenewedMs);
    if (f.periodMs <= 0)
        return tr("%1 / ?").arg(age);
    if (f.stopped())
        return tr("%1 / %2 · %3 late").arg(age, durationText(f.periodMs), QString::number(f.missed, 'f', 1));
    return tr("%1 / %2").arg(age, durationText(f.periodMs));
}

QString LivenessColumns::renewedToolTip(const RenewalFigures &f)
{
    if (f.lastRenewedMs < 0)
        return tr(
            "No renewal seen in this hold: a fixed lease, a hold that began moments ago, or a watchdog that never "
            "ran while watched");
    if (f.periodMs <= 0)
        return tr("Last renewed %1 ago; the period between renewals is not known yet (a second renewal tells it)")
            .arg(durationText(f.lastRenewedMs));
    if (f.stopped())
        return tr("Last renewed %1 ago, renewed every %2 before: the next renewal is %3 periods overdue. A watchdog "
                  "that stops renewing belongs to a holder that is paused or gone")
            .arg(durationText(f.lastRenewedMs), durationText(f.periodMs), QString::number(f.missed, 'f', 1));
    return tr("Last renewed %1 ago, renewed every %2: on time")
        .arg(durationText(f.lastRenewedMs), durationText(f.periodMs));
}

qint64 LivenessColumns::renewedSortValue(const RenewalFigures &f)
{
    if (f.lastRenewedMs < 0)
        return -1;
    const qint64 tenths = f.missed > 0 ? qMin(kMaxMissedTenths, qint64(std::llround(f.missed * 10))) : 0;
    return tenths * kAgeSpan + qMin(f.lastRenewedMs, kAgeSpan - 1);
}

int LivenessColumns::rank(LivenessVerdict::State state)
{
    switch (state) {
    case LivenessVerdict::State::LikelyDead:
        return 0;
    case LivenessVerdict::State::Unknown:
        return 1;
    case LivenessVerdict::State::Alive:
        break;
    }
    return 2;
}

LivenessColumns::Holders LivenessColumns::judge(const HolderWatch &watch, const LockRecord &record, bool withToolTip)
{
    Holders out;
    const QList<LockHolder> &holders = record.info.holders;
    const int count = int(qMin<qsizetype>(holders.size(), kMaxJudged));
    for (int i = 0; i < count; ++i) {
        const LockHolder &h = holders.at(i);
        LivenessVerdict v = watch.verdict(record.info, h);
        if (withToolTip) {
            if (holders.size() > 1)
                out.toolTip << tr("%1: %2").arg(escapeBytes(h.owner, 80), v.summary);
            else
                out.toolTip << v.summary;
            for (const QString &e : std::as_const(v.evidence))
                out.toolTip << tr("  • %1").arg(e);
        }
        if (out.judged == 0 || rank(v.state) < rank(out.worst.state))
            out.worst = std::move(v);
        ++out.judged;
    }
    if (withToolTip && holders.size() > count)
        out.toolTip << tr("(%1 more holders not judged here: the detail pane judges each)").arg(holders.size() - count);
    return out;
}

QVariant LivenessColumns::data(
    const HolderWatch *watch, const LockRecord &record, qint64 nowMs, bool liveness, int role)
{
    if (!liveness) {
        const RenewalFigures f = renewalFigures(record, nowMs);
        switch (role) {
        case Qt::DisplayRole:
            return renewedText(f);
        case Qt::ToolTipRole:
            return renewedToolTip(f);
        case LockTableModel::SortRole:
            return renewedSortValue(f);
        case LockTableModel::MissedRenewalsRole:
            return f.missed;
        }
        return {};
    }
    if (!watch)
        return role == LockTableModel::LivenessRole ? QVariant(-1)
            : role == Qt::DisplayRole               ? QVariant(QString())
                                                    : QVariant();
    const Holders judged = judge(*watch, record, role == Qt::ToolTipRole);
    switch (role) {
    case Qt::DisplayRole:
        return judged.judged > 0 ? judged.worst.summary : QStringLiteral("—");
    case Qt::ToolTipRole:
        return judged.judged > 0 ? QVariant(judged.toolTip.join(QLatin1Char('\n'))) : QVariant();
    case LockTableModel::SortRole:
        return judged.judged > 0 ? QVariant(rank(judged.worst.state)) : QVariant();
    case LockTableModel::LivenessRole:
        return judged.judged > 0 ? int(judged.worst.state) : -1;
    }
    return {};
}

QString LivenessColumns::headerToolTip(bool liveness)
{
    return liveness
        ? tr("Whether its holder is alive, likely dead or unknown, from its renewals, its connection (CLIENT LIST, and "
             "a trace: Tools › Trace clients) and its process; with several holders, the worst. Its tooltip gives "
             "the evidence")
        : tr("How long ago its lease was last renewed, against the period seen between renewals; late when the next "
             "renewal is a whole period overdue or more");
}

} // namespace LockScope
