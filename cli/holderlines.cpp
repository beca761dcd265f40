#include "holderlines.h"

#include "base/durationtext.h"
#include "liveness/holderwatch.h"
#include "redis/bytesformat.h"

#include <QCoreApplication>
#include <QDateTime>

namespace LockScope::Cli {

namespace {
// The context lupdate files these texts under: that of the namespace the functions live in.
QString tr(const char *text)
{
    return QCoreApplication::translate("LockScope::Cli", text);
}
} // namespace

QStringList holderFactLines(const HolderWatch &watch, const LockInfo &lock, const LockHolder &holder)
{
    const LivenessVerdict v = watch.verdict(lock, holder);
    QStringList lines { tr("    liveness: %1").arg(v.summary) };
    for (const QString &e : v.evidence)
        lines << tr("      - %1").arg(e);
    const OwnerPresence presence = watch.directory().presence(holder);
    for (const OwnerConnection &c : presence.connections) {
        QString where = QString::fromLatin1(c.addr);
        if (!c.name.isEmpty())
            where = tr("%1 (%2)").arg(QString::fromUtf8(c.name), where);
        if (!c.lib.isEmpty())
            where += tr(", %1").arg(QString::fromUtf8(c.lib));
        const QString seen
            = c.seenMs > 0 ? QDateTime::fromMSecsSinceEpoch(c.seenMs, Qt::UTC).toString(Qt::ISODateWithMs) : QString();
        lines << (c.source == OwnerConnection::Source::Trace ? tr("    connection: %1, traced at %2").arg(where, seen)
                                                             : tr("    connection: %1, by its name").arg(where));
    }
    const RenewalFigures &f = v.figures;
    if (f.lastRenewedMs >= 0) {
        lines << tr("    renewals: last %1 ago, every %2, %3 missed")
                     .arg(durationText(f.lastRenewedMs),
                         f.periodMs > 0 ? durationText(f.periodMs) : tr("(period not known yet)"),
                         f.missed >= 0 ? QString::number(f.missed, 'f', 1) : QStringLiteral("?"));
    }
    if (f.transitions > 0)
        lines << tr("    owner changes seen: %1").arg(f.transitions);
    return lines;
}

QStringList holdersFactLines(const HolderWatch &watch, const LockNow &now)
{
    LockInfo lock;
    lock.name = now.name;
    lock.holders = now.holders;
    lock.ttlMs = now.ttlMs;
    lock.mode = now.mode;
    QStringList lines;
    for (const LockHolder &h : now.holders) {
        if (now.holders.size() > 1)
            lines << tr("  %1:").arg(escapeBytes(h.owner, 120));
        lines << holderFactLines(watch, lock, h);
    }
    return lines;
}

} // namespace LockScope::Cli
