#include "models/locktexts.h"

#include "base/durationtext.h"

#include "stats/lockstatistics.h"

#include "kinds/locklayouts.h"

namespace LockScope {

QString LockTexts::kindText(LockInfo::Kind kind)
{
    return LockLayouts::kindText(kind);
}

QString LockTexts::watchdogText(WatchdogGuess guess)
{
    switch (guess) {
    case WatchdogGuess::Likely:
        return tr("likely");
    case WatchdogGuess::No:
        return tr("no");
    case WatchdogGuess::Unknown:
        break;
    }
    return tr("unknown");
}

QString LockTexts::ownWatchdogText(bool on)
{
    return on ? tr("on (ours)") : tr("off (ours)");
}

QString LockTexts::durationText(qint64 ms)
{
    return LockScope::durationText(ms);
}

QString LockTexts::endingText(const LockRecord &record)
{
    for (auto it = record.timeline.crbegin(); it != record.timeline.crend(); ++it) {
        switch (it->type) {
        case LockEvent::Type::Released:
            if (it->count > 0)
                continue; // one level of several: the end came later
            return tr("released");
        case LockEvent::Type::Expired:
            return tr("expired");
        case LockEvent::Type::ForceReleased:
            return tr("force-released");
        case LockEvent::Type::Lost:
            return tr("lost");
        default:
            continue;
        }
    }
    return tr("gone");
}

QString LockTexts::waitsText(const LockStats &l, qint64 nowMs)
{
    const qint64 longest = l.longestWaitMs(nowMs);
    const QString now = longest < 0 ? QString() : tr("; the longest wait going on: %1").arg(durationText(longest));
    switch (l.waitMethod()) {
    case WaitMethod::None:
        // Nobody has waited for it: nothing to say (a line on every lock would be noise).
        return longest < 0 ? QString() : tr("Waits: none ended yet") + now;
    case WaitMethod::WaiterTime:
        return tr("Waits: about %1 on average (waiter-time over acquisitions; no single wait seen)")
                   .arg(durationText(qint64(l.waitMeanMs())))
            + now;
    case WaitMethod::FairQueue:
    case WaitMethod::Subscriptions:
        break;
    }
    const QString figures = tr("Waits: p50 %1, p95 %2, max %3")
                                .arg(durationText(l.waits.quantile(0.5)), durationText(l.waits.quantile(0.95)),
                                    durationText(l.waits.max()));
    const QString how = l.waitMethod() == WaitMethod::FairQueue
        ? tr("%n wait(s) timed from the fair queue's entries (threads)", nullptr, int(l.waits.count()))
        : tr("%n wait(s) timed from subscriptions to its wake-up channel (connections: a JVM has one whatever its "
             "waiting threads; inferred)",
            nullptr, int(l.waits.count()));
    return QStringLiteral("%1 (%2)%3").arg(figures, how, now);
}

} // namespace LockScope
