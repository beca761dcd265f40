// How a fair lock is found and told from the other layouts, and what only it can say: its queue.
#include "kinds/fair/fairrecogniser.h"

#include "kinds/auxreader.h"
#include "kinds/hashreading.h"
#include "kinds/locknamemap.h"
#include "kinds/locknames.h"
#include "redis/bytesformat.h"

#include <algorithm>

namespace LockScope {

// A fair queue or deadline set whose lock hash is gone (docs/protocol/classification.md#orphaned-fair-queues). Every
// later fair acquire queues behind its head until the head's deadline passes, so it is shown as a fair lock nobody
// holds.
namespace {
const FairQueueAux &queueOf(const KeySnapshot &key)
{
    static const FairQueueAux none;
    const FairQueueAux *aux = key.aux.find<FairQueueAux>();
    return aux ? *aux : none;
}
} // namespace

bool FairRecogniser::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    if (key.type != "none")
        return false;
    const FairQueueAux &fair = queueOf(key);
    if (!fair.exists())
        return true;
    for (const QByteArray &member : fair.queue)
        if (!isOwnerField(member))
            return true; // some application's list that happens to carry Redisson's name
    for (auto it = fair.deadlines.cbegin(); it != fair.deadlines.cend(); ++it)
        if (!isOwnerField(it.key()))
            return true;
    info.kind = LockInfo::Kind::Fair;
    info.ttlMs = -1; // the queue keys never expire; there is no lock hash to have a TTL
    info.confidence = LockInfo::Confidence::Medium;
    QList<QByteArray> members = fair.queue;
    if (members.isEmpty()) {
        // Only the deadlines are left: show them in deadline order, the order the purge removes them.
        members = fair.deadlines.keys();
        std::sort(members.begin(), members.end(), [&fair](const QByteArray &a, const QByteArray &b) {
            return fair.deadlines.value(a) < fair.deadlines.value(b);
        });
    }
    for (const QByteArray &member : std::as_const(members))
        info.queue.append({ member, fair.deadlines.value(member, -1) });
    info.waiters = int(info.queue.size());
    info.evidence << ClassifierText::tr("a fair queue (%n waiting) with no lock hash", nullptr, int(info.queue.size()));
    info.warnings << ClassifierText::tr(
        "the fair queue is orphaned (its lock hash is gone): every later fair acquire waits behind its head until "
        "the head's deadline passes; lockscope-cli repair-queue %1 removes dead waiters")
                         .arg(escapeBytes(key.name, 200));
    const qint64 headDeadline = info.queue.first().second;
    if (headDeadline >= 0 && headDeadline <= key.nowMs)
        info.warnings << ClassifierText::tr("the fair queue is jammed: its head's deadline has passed");
    return true;
}

QList<ScanCursor> FairRecogniser::scanCursors(const DiscoveryScope &scope) const
{
    // One cursor for both redisson_lock_queue:* (lists) and redisson_lock_timeout:* (sorted sets), so no TYPE; it
    // leaves out redisson_lock_token:*.
    return LockRecogniser::scanCursors(scope)
        + QList<ScanCursor> { { "redisson_lock_[qt][ui]*", {}, ScanCursor::Read::AuxKeys } };
}

void FairRecogniser::readAux(AuxReader &reader) const
{
    const QByteArray &name = reader.snapshot().name;
    reader.command(
        { "ZRANGE", LockNames::fairTimeouts(name), "0", "-1", "WITHSCORES" }, [](KeySnapshot &s, const RedisResult &r) {
            const RedisValue &v = r.value;
            for (int k = 0; k + 1 < v.size(); k += 2)
                s.aux.get<FairQueueAux>().deadlines.insert(v.at(k).bytes(), v.at(k + 1).bytes().toLongLong());
        });
    reader.command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" }, [](KeySnapshot &s, const RedisResult &r) {
        for (const RedisValue &m : r.value.elements())
            s.aux.get<FairQueueAux>().queue << m.bytes();
    });
}

std::optional<HashMark> FairRecogniser::hashMark() const
{
    return HashMark { 20, {}, { &LockNames::fairQueue, &LockNames::fairTimeouts },
        [](const KeySnapshot &key, const HashReading &) { return queueOf(key).exists(); },
        QT_TRANSLATE_NOOP("AcquireCheck", "a fair lock (its wait queue %1 or timeout set %2 exists)") };
}

void FairRecogniser::describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const
{
    describeExclusive(hash, info, LockInfo::Kind::Fair,
        ClassifierText::tr("a fair queue exists (%n waiting)", nullptr, int(queueOf(key).queue.size())));
    // Fair waiters listen on channels of their own, not the lock's: the queue is the count.
    info.waiters = qMax(info.waiters, int(queueOf(key).queue.size()));
}

AuxEvidence FairRecogniser::auxEvidence(const KeySnapshot &key) const
{
    const bool exists = queueOf(key).exists();
    return { exists, exists };
}

void FairRecogniser::describeAux(const KeySnapshot &key, LockInfo &info) const
{
    const FairQueueAux &fair = queueOf(key);
    for (const QByteArray &member : fair.queue)
        info.queue.append({ member, fair.deadlines.value(member, -1) });
    if (!fair.queue.isEmpty()) {
        const qint64 deadline = fair.deadlines.value(fair.queue.first(), -1);
        if (deadline >= 0 && deadline <= key.nowMs)
            info.warnings << ClassifierText::tr("the fair queue is jammed: its head's deadline has passed");
    }
}

QByteArray FairRecogniser::releaseChannel(const QByteArray &name) const
{
    return LockNames::lockChannel(name);
}

QList<QByteArray> FairRecogniser::releaseChannelPatterns() const
{
    // A release publishes on the lock's channel; the waiter's own channel ("<lock channel>:<owner>") matches too.
    return { QByteArrayLiteral("redisson_lock__channel:*") };
}

QList<QByteArray> FairRecogniser::namesFromChannel(const QByteArray &channel) const
{
    QByteArray rest;
    if (!LockNameMap::afterPrefix(channel, "redisson_lock__channel:", &rest))
        return {};
    QByteArray lockPart; // a waiter's own channel: "<lock channel>:<uuid>:<token>"
    if (LockNameMap::stripOwner(rest, &lockPart))
        return LockNameMap::unwrap(lockPart) + LockNameMap::unwrap(rest);
    return LockNameMap::unwrap(rest);
}

// Orphaned fair queues (docs/protocol/classification.md#orphaned-fair-queues): a redisson_lock_queue:{N} list or
// redisson_lock_timeout:{N} sorted set whose lock hash N is gone. Every later fair acquire waits behind its head, so
// the monitor shows it as a fair lock with no holders. The scanner finds them by the fair cursor over the queue keys,
// or by reading a name that has no key, and reads them here.
QList<QByteArray> FairRecogniser::namesFromAuxKey(const QByteArray &key) const
{
    QList<QByteArray> names = LockNameMap::namesAfter(key, "redisson_lock_queue:");
    return names.isEmpty() ? LockNameMap::namesAfter(key, "redisson_lock_timeout:") : names;
}

bool FairRecogniser::mayOutliveItsKey(const QByteArray &name) const
{
    // For "redisson_lock_queue:{X}" both X and "{X}" name the same key (prefixName wraps only names without braces);
    // X, the common case, is the one a queue is listed under.
    return !name.isEmpty() && LockNameMap::fromKey(LockNames::fairQueue(name)).value(0) == name;
}

void FairRecogniser::readKeyless(AuxReader &reader) const
{
    const QByteArray name = reader.snapshot().name;
    const QByteArray queueKey = LockNames::fairQueue(name);
    // Every name the queue key may belong to: a hash under any of them is the lock, listed by the hash cursor (or by
    // its own read), never twice.
    QList<QByteArray> exists { "EXISTS" };
    exists << LockNameMap::fromKey(queueKey);
    reader.command(exists, [](KeySnapshot &s, const RedisResult &r) {
        if (!r.ok() || r.value.toInteger() != 0)
            s.superseded = true;
    });
    // A key of another type under Redisson's name answers WRONGTYPE: nothing is read, nothing is shown.
    reader.command({ "LRANGE", queueKey, "0", "-1" }, [](KeySnapshot &s, const RedisResult &r) {
        if (r.ok() && r.value.isArray())
            for (const RedisValue &m : r.value.elements())
                s.aux.get<FairQueueAux>().queue << m.bytes();
    });
    reader.command(
        { "ZRANGE", LockNames::fairTimeouts(name), "0", "-1", "WITHSCORES" }, [](KeySnapshot &s, const RedisResult &r) {
            if (!r.ok() || !r.value.isArray())
                return;
            for (int k = 0; k + 1 < r.value.size(); k += 2)
                s.aux.get<FairQueueAux>().deadlines.insert(
                    r.value.at(k).bytes(), r.value.at(k + 1).bytes().toLongLong());
        });
}

} // namespace LockScope
