#include "kinds/semaphore/semaphorelayout.h"

#include "kinds/auxreader.h"
#include "kinds/hashreading.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"
#include "kinds/semaphore/counterscripts.h"

namespace LockScope {

LockCapabilities SemaphoreLayout::capabilities() const
{
    LockCapabilities c;
    c.wakeChannel = true;
    c.waiterCount = true;
    return c;
}

QByteArray SemaphoreLayout::channel(const QByteArray &name)
{
    return LockNames::prefixName("redisson_sc", name);
}

QList<QByteArray> SemaphoreLayout::namesFromChannel(const QByteArray &channel) const
{
    return LockNameMap::namesAfter(channel, "redisson_sc:");
}

ScriptCall SemaphoreLayout::addPermits(const QByteArray &name, qint64 permits, const QByteArray &publish)
{
    return { &CounterScripts::addPermits(), { name, channel(name) }, { QByteArray::number(permits), publish } };
}

std::optional<CounterCall> SemaphoreLayout::counterCall(const CounterRequest &request, const QByteArray &publish) const
{
    if (request.action != LockAction::AddPermits)
        return std::nullopt;
    return CounterCall { addPermits(request.name, request.permits, publish), channel(request.name) };
}

void SemaphoreLayout::readStringAux(AuxReader &reader) const
{
    if (!isCandidate(reader.snapshot()))
        return;
    reader.command({ "PUBSUB", "NUMSUB", channel(reader.snapshot().name) }, [](KeySnapshot &s, const RedisResult &r) {
        // Denied (an ACL without PUBSUB): the waiters stay unknown.
        if (r.ok() && r.value.size() == 2)
            s.aux.get<CounterAux>().semaphoreSubscribers = int(r.value.at(1).toInteger());
    });
}

void SemaphoreLayout::describeWaiters(const KeySnapshot &key, LockInfo &info) const
{
    const int subscribers = auxOf(key).semaphoreSubscribers;
    info.waiters = subscribers;
    if (subscribers > 0) {
        info.confidence = LockInfo::Confidence::High;
        info.evidence << ClassifierText::tr("%1 listening on %2, where a semaphore's waiters wait")
                             .arg(subscribers)
                             .arg(QString::fromUtf8(channel(key.name)));
    }
}

bool SemaphoreLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    // After the expirable semaphore and the latch had their say: a declared integer they did not claim.
    if (!isCandidate(key))
        return false;
    // Named by its waiters alone (no pattern declares it): once the listeners read beside it are gone, nothing says
    // it is Redisson's (before they are read, the waiters that vouched for it do).
    if (!key.vouchedBy.isEmpty() && auxOf(key).semaphoreSubscribers == 0 && auxOf(key).latchSubscribers == 0)
        return false;
    describeCounter(key, info);
    describeWaiters(key, info);
    if (auxOf(key).semaphoreSubscribers <= 0)
        info.evidence << ClassifierText::tr("a count-down latch looks the same while nobody waits on either");
    return true;
}

} // namespace LockScope
