#include "models/locktexts.h"

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
    if (ms < 0)
        return tr("none");
    if (ms < 60000)
        return tr("%1 s").arg(ms / 1000.0, 0, 'f', 1);
    if (ms < 3600000)
        return tr("%1 min %2 s").arg(ms / 60000).arg((ms / 1000) % 60);
    return tr("%1 h %2 min").arg(ms / 3600000).arg((ms / 60000) % 60);
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

} // namespace LockScope
