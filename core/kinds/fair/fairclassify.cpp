// How a fair lock is told from the other layouts, and what only it can say: its queue.
#include "kinds/fair/fairlayout.h"

#include "kinds/auxreader.h"
#include "kinds/hashreading.h"
#include "kinds/locknames.h"
#include "redis/bytesformat.h"

#include <algorithm>

namespace LockScope {

// A fair queue or deadline set whose lock hash is gone (docs/protocol/classification.md#orphaned-fair-queues). Every
// later fair acquire queues behind its head until the head's deadline passes, so it is shown as a fair lock nobody
// holds.
bool FairLayout::classifyKey(const KeySnapshot &key, LockInfo &info) const
{
    if (key.type != "none")
        return false;
    if (key.queue.isEmpty() && key.queueDeadlines.isEmpty())
        return true;
    for (const QByteArray &member : key.queue)
        if (!isOwnerField(member))
            return true; // some application's list that happens to carry Redisson's name
    for (auto it = key.queueDeadlines.cbegin(); it != key.queueDeadlines.cend(); ++it)
        if (!isOwnerField(it.key()))
            return true;
    info.kind = LockInfo::Kind::Fair;
    info.ttlMs = -1; // the queue keys never expire; there is no lock hash to have a TTL
    info.confidence = LockInfo::Confidence::Medium;
    QList<QByteArray> members = key.queue;
    if (members.isEmpty()) {
        // Only the deadlines are left: show them in deadline order, the order the purge removes them.
        members = key.queueDeadlines.keys();
        std::sort(members.begin(), members.end(), [&key](const QByteArray &a, const QByteArray &b) {
            return key.queueDeadlines.value(a) < key.queueDeadlines.value(b);
        });
    }
    for (const QByteArray &member : std::as_const(members))
        info.queue.append({ member, key.queueDeadlines.value(member, -1) });
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

QList<ScanCursor> FairLayout::scanCursors(const DiscoveryScope &scope) const
{
    // One cursor for both redisson_lock_queue:* (lists) and redisson_lock_timeout:* (sorted sets), so no TYPE; it
    // leaves out redisson_lock_token:*.
    return LockLayout::scanCursors(scope)
        + QList<ScanCursor> { { "redisson_lock_[qt][ui]*", {}, ScanCursor::Read::QueueKeys } };
}

void FairLayout::readAux(AuxReader &reader) const
{
    const QByteArray &name = reader.snapshot().name;
    reader.command(
        { "ZRANGE", LockNames::fairTimeouts(name), "0", "-1", "WITHSCORES" }, [](KeySnapshot &s, const RedisResult &r) {
            const RedisValue &v = r.value;
            for (int k = 0; k + 1 < v.size(); k += 2)
                s.queueDeadlines.insert(v.at(k).bytes(), v.at(k + 1).bytes().toLongLong());
        });
    reader.command({ "LRANGE", LockNames::fairQueue(name), "0", "-1" }, [](KeySnapshot &s, const RedisResult &r) {
        for (const RedisValue &m : r.value.elements())
            s.queue << m.bytes();
    });
}

std::optional<HashMark> FairLayout::hashMark() const
{
    return HashMark { 20, {}, { &LockNames::fairQueue, &LockNames::fairTimeouts },
        [](const KeySnapshot &, const HashReading &hash) { return hash.fairAux; } };
}

void FairLayout::describeHash(const KeySnapshot &key, const HashReading &hash, LockInfo &info) const
{
    describeExclusive(hash, info, LockInfo::Kind::Fair,
        ClassifierText::tr("a fair queue exists (%n waiting)", nullptr, int(key.queue.size())));
    // Fair waiters listen on channels of their own, not the lock's: the queue is the count.
    info.waiters = qMax(info.waiters, int(key.queue.size()));
}

} // namespace LockScope
