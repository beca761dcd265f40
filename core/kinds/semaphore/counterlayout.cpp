#include "kinds/semaphore/counterlayout.h"

#include "kinds/hashreading.h"
#include "redis/bytesformat.h"
#include "redis/redisvalue.h"

#include <QCoreApplication>

namespace LockScope {

bool CounterLayout::isCandidate(const KeySnapshot &key)
{
    return key.type == "string" && key.library == "redisson" && key.pttlMs != -2 && isCounterValue(key.value);
}

const CounterAux &CounterLayout::auxOf(const KeySnapshot &key)
{
    static const CounterAux none;
    const CounterAux *aux = key.aux.find<CounterAux>();
    return aux ? *aux : none;
}

QString CounterLayout::counterText(qint64 value) const
{
    return QCoreApplication::translate("LockScope::CounterLayout", "%n permit(s) free", nullptr, int(value));
}

void CounterLayout::describeCounter(const KeySnapshot &key, LockInfo &info) const
{
    info.kind = kind();
    info.library = library();
    info.counter = key.value.toLongLong();
    info.confidence = LockInfo::Confidence::Medium;
    if (key.vouchedBy.isEmpty())
        info.evidence << ClassifierText::tr("its name was declared as redisson's");
    else
        info.evidence << ClassifierText::tr("no pattern declares its name: its waiters on %1, Redisson's own channel "
                                            "for it, vouch for it")
                             .arg(escapeBytes(key.vouchedBy, 200));
    info.evidence << ClassifierText::tr("an integer string: Redisson keeps a semaphore's free permits or a latch's "
                                        "count so");
    if (key.pttlMs >= 0)
        info.evidence << ClassifierText::tr("has a TTL");
}

QString CounterLayout::refusal(LockAction action, const QByteArray &name) const
{
    if (action != LockAction::Release && action != LockAction::ForceRelease)
        return {};
    return QCoreApplication::translate(
        "LockScope::CounterLayout", "%1 is a Redisson %2, not a lock: it is not released as one; nothing changed")
        .arg(escapeBytes(name, 200), QCoreApplication::translate("LockScope::LockTableModel", label()));
}

} // namespace LockScope
