// advise: the lease advisor over a window of a recording (docs/recording.md#advise).
#include "recordquerycommands.h"

#include "recording/leaseadvisor.h"
#include "recording/recordingstore.h"
#include "redis/bytesformat.h"

#include <QJsonObject>

namespace LockScope::Cli {

namespace {
QString seconds(qint64 ms)
{
    return ms < 0 ? QStringLiteral("-") : QString::number(double(ms) / 1000.0, 'f', ms < 10000 ? 1 : 0);
}
} // namespace

void AdviseCommand::start()
{
    qint64 since, until;
    RecordingStore store;
    if (!openWindow(store, &since, &until))
        return;
    LeaseAdvice advice;
    QString error;
    if (!LeaseAdvice::advise(store, keyPattern(), since, until, &advice, &error)) {
        readFailed(error);
        return;
    }
    if (m_out.json()) {
        for (const LeaseAdvice::Lock &l : advice.locks)
            m_out.jsonLine(l.toJson());
        finish(ExitDone);
        return;
    }
    QStringList lines;
    for (const LeaseAdvice::Lock &l : advice.locks) {
        lines << tr("%1  %2/%3  %n hold(s)  p50 %4 s  p95 %5 s  max %6 s  lease %7 s%8", nullptr, int(l.holds))
                     .arg(escapeBytes(l.name, 120), QString::fromLatin1(l.kind), QString::fromUtf8(l.library),
                         seconds(l.p50Ms), seconds(l.p95Ms), seconds(l.maxMs), seconds(l.leaseMs),
                         l.watchdog ? tr(" (watchdog)") : QString());
        for (const LeaseAdvice::Verdict &v : l.verdicts)
            lines << QStringLiteral("  ! ") + v.text;
        for (const LeaseAdvice::Client &c : l.clients)
            lines << tr("  %1 renews every %2 s (lockWatchdogTimeout about %3 s); gaps ≤1.5×: %4, 1.5–3×: %5, >3×: %6")
                         .arg(escapeBytes(c.client, 60), seconds(c.periodMs), seconds(c.inferredTimeoutMs))
                         .arg(c.gapHistogram.value(QStringLiteral("<=1.5x")))
                         .arg(c.gapHistogram.value(QStringLiteral("1.5x-3x")))
                         .arg(c.gapHistogram.value(QStringLiteral(">3x")));
    }
    m_out.line(lines.isEmpty() ? tr("no holds recorded in that window") : lines.join(QLatin1Char('\n')));
    finish(ExitDone);
}

} // namespace LockScope::Cli
