#include "kinds/countdownlatch/countdownlatchlayout.h"

#include "kinds/auxreader.h"
#include "kinds/hashreading.h"
#include "kinds/locknamemap.h"
#include "kinds/semaphore/counterscripts.h"

#include <QCoreApplication>

namespace LockScope {

LockCapabilities CountDownLatchLayout::capabilities() const
{
    LockCapabilities c;
    c.wakeChannel = true;
    c.waiterCount = true;
    return c;
}

QString CountDownLatchLayout::counterText(qint64 value) const
{
    return QCoreApplication::translate("LockScope::CounterLayout", "%n to count down", nullptr, int(value));
}

QByteArray CountDownLatchLayout::channel(const QByteArray &name)
{
    return "redisson_countdownlatch__channel__{" + name + '}';
}

QList<QByteArray> CountDownLatchLayout::namesFromChannel(const QByteArray &channel) const
{
    // Redisson always wraps the name in braces here, whatever it holds.
    QByteArray rest;
    if (!LockNameMap::afterPrefix(channel, "redisson_countdownlatch__channel__{", &rest) || !rest.endsWith('}'))
        return {};
    rest.chop(1);
    return { rest };
}

ScriptCall CountDownLatchLayout::open(const QByteArray &name, const QByteArray &countShown, const QByteArray &publish)
{
    return { &CounterScripts::open(), { name, channel(name) }, { countShown, publish } };
}

std::optional<CounterCall> CountDownLatchLayout::counterCall(
    const CounterRequest &request, const QByteArray &publish) const
{
    if (request.action != LockAction::OpenLatch)
        return std::nullopt;
    return CounterCall { open(request.name, request.countShown, publish), channel(request.name) };
}

void CountDownLatchLayout::readStringAux(AuxReader &reader) const
{
    if (!isCandidate(reader.snapshot()))
        return;
    reader.command({ "PUBSUB", "NUMSUB", channel(reader.snapshot().name) }, [](KeySnapshot &s, const RedisResult &r) {
        if (r.ok() && r.value.size() == 2)
            s.aux.get<CounterAux>().latchSubscribers = int(r.value.at(1).toInteger());
    });
}

bool CountDownLatchLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    // Waiters on the latch's channel and none on the semaphore's: nothing else tells the two integers apart.
    const CounterAux &aux = auxOf(key);
    if (!isCandidate(key) || aux.permitsTaken > 0 || aux.latchSubscribers <= 0 || aux.semaphoreSubscribers > 0)
        return false;
    describeCounter(key, info);
    info.confidence = LockInfo::Confidence::High;
    info.waiters = aux.latchSubscribers;
    info.evidence << ClassifierText::tr("%1 listening on %2, where a count-down latch's waiters wait")
                         .arg(aux.latchSubscribers)
                         .arg(QString::fromUtf8(channel(key.name)));
    return true;
}

} // namespace LockScope
