// The scanner's second stage (docs/design.md#monitor): for the candidates a batch found, the PTTL of the hashes, the
// reads each layout wants beside a lock hash (at once, or after the walk with deferAuxReads), the waiter counts, then
// classification.
#include "kinds/auxreader.h"
#include "kinds/locklayouts.h"
#include "kinds/lockscanner.h"
#include "kinds/lockscannerparts.h"
#include "redis/rediscommander.h"
#include "redis/replyjoin.h"

#include <QDateTime>

#include <algorithm>
#include <memory>

namespace LockScope {

using namespace ScannerParts;

void LockScanner::readRest(QList<KeySnapshot> candidates)
{
    // A lock-shaped first page of a hash with more pages: a read-write lock with many readers. Read it whole.
    QList<int> partial;
    for (int i = 0; i < candidates.size(); ++i)
        if (candidates.at(i).partial)
            partial << i;
    if (partial.isEmpty()) {
        readAux(std::move(candidates));
        return;
    }
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    QPointer<LockScanner> self(this);
    const auto join = batchJoin([self, snaps] { self->readAux(std::move(*snaps)); });
    m_connection->cork();
    for (int i : partial) {
        m_connection->command({ "HGETALL", snaps->at(i).name }, join->track([snaps, i](const RedisResult &r) {
            KeySnapshot &s = (*snaps)[i];
            s.fields.clear();
            for (int k = 0; k + 1 < r.value.size(); k += 2)
                s.fields.append({ r.value.at(k).bytes(), r.value.at(k + 1).bytes() });
            s.partial = false;
        }));
    }
    join->seal(this);
    m_connection->uncork();
}

void LockScanner::emitLocks(const QList<KeySnapshot> &snapshots, const QList<int> &skip)
{
    QList<LockInfo> locks;
    locks.reserve(snapshots.size());
    int nextSkip = 0;
    for (int i = 0; i < snapshots.size(); ++i) {
        if (nextSkip < skip.size() && skip.at(nextSkip) == i) {
            ++nextSkip;
            continue;
        }
        const KeySnapshot &s = snapshots.at(i);
        // Superseded; its PTTL unanswered; or deleted since its fields were read.
        if (s.superseded || s.pttlMs == kPttlUnread || (s.type == "hash" && s.pttlMs == -2))
            continue;
        LockInfo info = classify(s);
        if (info.isLock())
            locks << std::move(info);
    }
    if (!locks.isEmpty())
        emit locksFound(locks);
}

void LockScanner::readAux(QList<KeySnapshot> candidates)
{
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    // Lock hashes whose aux reads wait for the end of the walk (deferAuxReads), in ascending order.
    auto deferred = std::make_shared<QList<int>>();
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    const auto join = batchJoin([self, generation, snaps, deferred] {
        self->emitLocks(*snaps, *deferred);
        if (!current(self, generation))
            return;
        if (!deferred->isEmpty()) {
            QList<KeySnapshot> waiting;
            waiting.reserve(deferred->size());
            for (int i : std::as_const(*deferred))
                waiting << std::move((*snaps)[i]);
            self->deferAux(std::move(waiting));
        }
        if (current(self, generation))
            self->batchDone();
    });
    struct ChannelGroup
    {
        QList<QByteArray> channels;
        QList<int> snapshots;
    };
    QHash<RedisCommander *, ChannelGroup> channelGroups;
    AuxReads reads;
    QList<QByteArray> pttlKeys;
    QList<int> pttlSnapshots;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 mono = monotonicMs();
    m_connection->cork();
    for (int i = 0; i < snaps->size(); ++i) {
        if (snaps->at(i).pttlMs == kPttlUnread) {
            // The TTL's deadline counts from when its PTTL leaves, not from when the fields were asked for.
            (*snaps)[i].nowMs = now;
            (*snaps)[i].monoMs = mono;
            pttlKeys << snaps->at(i).name;
            pttlSnapshots << i;
        }
        if (snaps->at(i).type == "string") {
            // A string lock has no aux keys and no wake-up channel; a declared Redisson counter has both.
            AuxReader reader(&reads, *snaps, i);
            for (const LockLayout *layout : LockLayouts::all())
                layout->recogniser().readStringAux(reader);
            continue;
        }
        // A sorted-set lock, or a hash another library's layout took by its first page (not Redisson's shape): read
        // whole already, and without Redisson's aux keys or wake-up channel.
        if (snaps->at(i).type == "zset" || (snaps->at(i).type == "hash" && !lockShaped(snaps->at(i))))
            continue;
        if (snaps->at(i).type == "none") {
            AuxReader reader(&reads, *snaps, i);
            for (const LockLayout *layout : LockLayouts::all())
                layout->recogniser().readKeyless(reader);
            continue;
        }
        // Each layout reads what its fingerprint needs (kinds/<layout>/), in one pipeline with the rest; or, once the
        // walk has seen every key, only the keys it returned (readSeenAux).
        if (m_deferring) {
            deferred->append(i);
        } else {
            AuxReader reader(&reads, *snaps, i);
            for (const LockLayout *layout : LockLayouts::all())
                layout->recogniser().readAux(reader);
        }
        const QByteArray channel = LockLayouts::hashReleaseChannel(snaps->at(i));
        // Subscriptions live on the node serving the channel's slot (where Redisson subscribes): one count
        // command per node for the whole batch.
        ChannelGroup &group = channelGroups[m_connection->connectionForKey(channel)];
        group.channels << channel;
        group.snapshots << i;
    }
    if (!pttlKeys.isEmpty()) {
        m_connection->commandEach({ "PTTL" }, pttlKeys, {},
            join->trackBatch(
                [snaps, indexes = std::move(pttlSnapshots)](const RedisError &, const QList<RedisValue> &replies) {
                    for (qsizetype k = 0; k < replies.size() && k < indexes.size(); ++k)
                        if (replies.at(k).isInteger())
                            (*snaps)[indexes.at(k)].pttlMs = replies.at(k).toInteger();
                }));
    }
    if (!reads.commands.isEmpty()) {
        m_connection->commandBatch(reads.commands,
            join->trackBatch(
                [snaps, stores = std::move(reads.stores)](const RedisError &, const QList<RedisValue> &replies) {
                    if (replies.size() != stores.size())
                        return;
                    for (qsizetype k = 0; k < replies.size(); ++k)
                        stores.at(k).second((*snaps)[stores.at(k).first], RedisResult::fromValue(replies.at(k)));
                }));
    }
    for (const ChannelGroup &group : std::as_const(channelGroups)) {
        // Read when the count is sent: a subscription confirmed by then is in the server's count.
        QList<int> own(group.channels.size(), 0);
        for (int k = 0; m_own && k < group.channels.size(); ++k)
            own[k] = m_own->isConfirmed(RedisSubscriptions::Kind::Shard, group.channels.at(k)) ? 1 : 0;
        const auto counts = [snaps, indexes = group.snapshots, own](bool shard) {
            return [snaps, indexes, own, shard](const RedisResult &r) {
                // Denied (an ACL without PUBSUB): waiters stay unknown, the rest of the picture is still right.
                if (!r.ok() || r.value.size() != 2 * indexes.size())
                    return;
                for (int k = 0; k < indexes.size(); ++k) {
                    KeySnapshot &s = (*snaps)[indexes.at(k)];
                    const int n = int(r.value.at(2 * k + 1).toInteger());
                    (shard ? s.shardSubscribers : s.channelSubscribers) = shard ? qMax(0, n - own.at(k)) : n;
                }
            };
        };
        m_connection->command(QList<QByteArray> { "PUBSUB", "NUMSUB" } + group.channels, join->track(counts(false)));
        if (m_options.shardWaiters)
            m_connection->command(
                QList<QByteArray> { "PUBSUB", "SHARDNUMSUB" } + group.channels, join->track(counts(true)));
    }
    join->seal(this);
    m_connection->uncork();
}

void LockScanner::deferAux(QList<KeySnapshot> candidates)
{
    // Kept as the batches they came in: no list of them all that grows (and is copied) as the walk goes, and at the
    // end each batch is read on its own, so the aux commands of all of them are never built at once.
    m_parked.push_back(std::move(candidates));
    if (m_scanDone)
        readParked();
}

void LockScanner::walkEnded()
{
    m_scanDone = true;
    if (m_deferring)
        readParked();
}

void LockScanner::readParked()
{
    for (QList<KeySnapshot> &batch : std::exchange(m_parked, {}))
        readSeenAux(std::move(batch));
}

void LockScanner::readSeenAux(QList<KeySnapshot> candidates)
{
    // The walk has returned every key there was: an aux key it never returned does not exist (or was made after it
    // passed, as it could have been after a read). Only the reads of keys it may have returned are sent; the others
    // get the answer a missing key gives, here. Most lock hashes have no aux keys at all.
    ++m_batchesInFlight;
    auto snaps = std::make_shared<QList<KeySnapshot>>(std::move(candidates));
    QPointer<LockScanner> self(this);
    const quint64 generation = m_generation;
    const auto join = batchJoin([self, generation, snaps] {
        self->emitLocks(*snaps, {});
        if (current(self, generation))
            self->batchDone();
    });
    AuxReads reads;
    for (int i = 0; i < snaps->size(); ++i) {
        AuxReader reader(&reads, *snaps, i);
        for (const LockLayout *layout : LockLayouts::all())
            layout->recogniser().readAux(reader);
    }
    AuxReads sent;
    QList<QByteArray> keys;
    for (qsizetype k = 0; k < reads.commands.size(); ++k) {
        const std::optional<RedisValue> absent = replyWithoutKeys(reads.commands.at(k), &keys);
        const bool seen = std::any_of(
            keys.cbegin(), keys.cend(), [this](const QByteArray &key) { return m_walkedKeys.mayContain(key); });
        if (absent && !seen) {
            const auto &[index, store] = reads.stores.at(k);
            store((*snaps)[index], RedisResult::fromValue(*absent));
        } else {
            sent.commands.append(reads.commands.at(k));
            sent.stores.append(reads.stores.at(k));
        }
    }
    if (!sent.commands.isEmpty()) {
        m_connection->commandBatch(sent.commands,
            join->trackBatch(
                [snaps, stores = std::move(sent.stores)](const RedisError &, const QList<RedisValue> &replies) {
                    if (replies.size() != stores.size())
                        return;
                    for (qsizetype k = 0; k < replies.size(); ++k)
                        stores.at(k).second((*snaps)[stores.at(k).first], RedisResult::fromValue(replies.at(k)));
                }));
    }
    join->seal(this);
}

} // namespace LockScope
